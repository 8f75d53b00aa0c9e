// Refreshes the dashboard's audit section (trajectories, flags) every few
// seconds, so an audited table's dashboard updates as messages are measured.
(function () {
  const section = document.getElementById("audit");
  if (!section || !section.dataset.refresh) return;
  const url = section.dataset.refresh;
  async function refresh() {
    try {
      const res = await fetch(url, { credentials: "same-origin", cache: "no-store" });
      if (res.ok) section.innerHTML = await res.text();
    } catch (e) {
      // offline for a moment: the next tick tries again
    }
  }
  setInterval(refresh, 4000);
})();
