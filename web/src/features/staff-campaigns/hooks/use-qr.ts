import { useEffect, useState } from 'react';
import { type QrMatrix, qrMatrix, qrSvg } from '../../../lib/qr';

export type Qr =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly matrix: QrMatrix; readonly svg: string }
  | { readonly state: 'failed' };

/** The link's QR code (matrix and SVG); the `qrcode` module loads with the first one. */
export function useQr(link: string, title: string): Qr {
  const [qr, setQr] = useState<{ readonly key: string; readonly qr: Qr }>({ key: '', qr: { state: 'loading' } });
  const key = `${link}\n${title}`;
  useEffect(() => {
    let active = true;
    qrMatrix(link).then(
      (matrix) => active && setQr({ key, qr: { state: 'ready', matrix, svg: qrSvg(matrix, title) } }),
      () => active && setQr({ key, qr: { state: 'failed' } }),
    );
    return () => {
      active = false;
    };
  }, [key, link, title]);
  return qr.key === key ? qr.qr : { state: 'loading' };
}
