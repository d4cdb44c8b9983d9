import { useEffect, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { useRuntimeConfig } from '../../../config';
import type { SignInOutcome, TotpSetup } from '../api/sign-in';
import { TotpForm } from './totp-form';

/** The name an authenticator app lists the account under; local mode says so, beside a stage's. */
function totpIssuer(local: boolean): string {
  return local ? 'Students Wing staff (local)' : 'Students Wing staff';
}

/** The secret in groups of four, as authenticator apps show keys: easier to copy by hand. */
function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

type Qr =
  { readonly state: 'loading' } | { readonly state: 'ready'; readonly src: string } | { readonly state: 'failed' };

/** The otpauth:// URI as an SVG QR code; the `qrcode` module loads only with this screen. */
function useQrCode(uri: string): Qr {
  const [qr, setQr] = useState<{ readonly uri: string; readonly qr: Qr }>({ uri, qr: { state: 'loading' } });
  useEffect(() => {
    let active = true;
    import('qrcode')
      .then((QRCode) => QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }))
      .then(
        (svg) =>
          active &&
          setQr({ uri, qr: { state: 'ready', src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` } }),
        () => active && setQr({ uri, qr: { state: 'failed' } }),
      );
    return () => {
      active = false;
    };
  }, [uri]);
  return qr.uri === uri ? qr.qr : { state: 'loading' };
}

/**
 * Enrolment, at the first sign-in after the new password (or after an admin reset): the
 * QR code of the otpauth:// URI, the secret as text for those who cannot scan (and, in
 * local mode, for a newcomer without a phone: `oathtool --totp -b KEY`), then a first code.
 */
export function TotpSetupForm({
  setup,
  onNextStep,
  onCancel,
}: {
  setup: TotpSetup;
  onNextStep: (outcome: SignInOutcome) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('staff');
  const config = useRuntimeConfig();
  const qr = useQrCode(setup.uri(totpIssuer(Boolean(config.cognito.endpoint))));

  return (
    <TotpForm
      onNextStep={onNextStep}
      onCancel={onCancel}
      codeLabel={t('totpSetup.enterCode')}
      submitLabel={t('totpSetup.submit')}
    >
      <div className="totp-setup">
        <p className="totp-setup-step">{t('totpSetup.scan')}</p>
        <div className="totp-qr" aria-busy={qr.state === 'loading'}>
          {qr.state === 'ready' && <img src={qr.src} alt={t('totpSetup.qrAlt')} width={200} height={200} />}
          {qr.state === 'loading' && <span className="totp-qr-note">{t('totpSetup.qrLoading')}</span>}
          {qr.state === 'failed' && <span className="totp-qr-note">{t('totpSetup.qrFailed')}</span>}
        </div>
        <p className="totp-setup-step">{t('totpSetup.keyLabel')}</p>
        <p className="totp-secret">
          <code data-testid="totp-secret" translate="no">
            {groupedSecret(setup.secret)}
          </code>
        </p>
        <p className="field-hint">{t('totpSetup.keyHint')}</p>
      </div>
    </TotpForm>
  );
}
