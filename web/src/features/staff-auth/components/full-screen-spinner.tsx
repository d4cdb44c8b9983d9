import { Spinner } from '../../../components/spinner';

/** The gate's wait (spec 4): a spinner centred on the whole screen. */
export function FullScreenSpinner({ label }: { label: string }) {
  return (
    <div className="fullscreen-center">
      <Spinner label={label} />
    </div>
  );
}
