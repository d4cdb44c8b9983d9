import type { Ref } from 'react';
import { useTranslation } from '../../../i18n/use-translation';

interface MembershipIntroProps {
  /** Defaults to the landing title. */
  readonly title?: string;
  /** Defaults to the landing description; null for none. */
  readonly description?: string | null;
  /** The heading takes focus after a step change. */
  readonly headingRef?: Ref<HTMLHeadingElement>;
}

/** Banner, emblem, title and description at the top of the public page. */
export function MembershipIntro({ title, description, headingRef }: MembershipIntroProps) {
  const { t } = useTranslation();
  const text = description === undefined ? t('landing.description') : description;
  return (
    <div className="intro">
      <img className="intro-banner" src="/banner.svg" alt="" width="960" height="240" />
      <img className="intro-logo" src="/logo.svg" alt="" width="80" height="80" />
      <h1 className="intro-title" ref={headingRef} tabIndex={headingRef ? -1 : undefined}>
        {title ?? t('landing.title')}
      </h1>
      {text && <p className="intro-description">{text}</p>}
    </div>
  );
}
