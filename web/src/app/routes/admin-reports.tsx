// The Reports page comes with its own issue; the route already has its own lazy chunk.
export function ReportsRoute() {
  return (
    <main className="staff-main">
      <h1>Reports</h1>
    </main>
  );
}
