import { type FormEvent, useId, useState } from 'react';
import { isEmail } from '../../../../../rules/schema';
import { useTranslation } from '../../../i18n/use-translation';
import { useInviteStaff } from '../hooks/use-staff-members';
import { type Assignment, AssignmentFields, FieldError } from './assignment-fields';

/** What the form knows before the server answers: a missing or odd email, a coordinator without a district. */
function localErrors(email: string, value: Assignment): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!email.trim()) errors.email = 'REQUIRED';
  else if (!isEmail(email.trim())) errors.email = 'INVALID';
  if (value.role === 'coordinator' && value.districts.length === 0) errors.districts = 'REQUIRED';
  return errors;
}

/** An invitation: email, role and districts. The notice (with a local temporary password) is the page's. */
export function InviteForm({ onInvited }: { onInvited: (email: string, password?: string) => void }) {
  const { t } = useTranslation('staff');
  const id = useId();
  const invite = useInviteStaff();
  const [email, setEmail] = useState('');
  const [assignment, setAssignment] = useState<Assignment>({ role: 'coordinator', districts: [] });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const shown = { ...(invite.failure?.fields ?? {}), ...errors };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = localErrors(email, assignment);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const sent = email.trim();
    invite.mutate(
      { email: sent, role: assignment.role, districts: [...assignment.districts] },
      {
        onSuccess: (answer) => {
          setEmail('');
          setAssignment({ role: 'coordinator', districts: [] });
          onInvited(sent, answer.temporaryPassword);
        },
      },
    );
  };

  return (
    <form className="card staff-invite" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <div className="card-body">
        <h2 id={`${id}-title`} className="staff-section-title">
          {t('staffAdmin.inviteTitle')}
        </h2>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-email`}>
            {t('staffAdmin.email')}
          </label>
          <input
            id={`${id}-email`}
            className="input"
            type="email"
            autoComplete="off"
            value={email}
            aria-invalid={shown.email ? true : undefined}
            aria-describedby={shown.email ? `${id}-email-error` : undefined}
            onChange={(event) => setEmail(event.target.value)}
          />
          <FieldError id={`${id}-email-error`} field="email" code={shown.email} />
        </div>
        <AssignmentFields value={assignment} onChange={setAssignment} errors={shown} />
        {invite.failure && Object.keys(invite.failure.fields).length === 0 && (
          <p className="alert alert-error" role="alert">
            {t('staffAdmin.changeFailed')}
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={invite.isPending}>
          {invite.isPending ? t('staffAdmin.inviting') : t('staffAdmin.invite')}
        </button>
      </div>
    </form>
  );
}
