// Sounds and notifications on the game page, each off until the player turns it on (kept in
// localStorage): a short tone when the opponent's step arrives, two higher ones when the
// player's own live clock falls under 10 seconds, and a browser notification "your turn" in
// a correspondence game while the page is in the background.
'use strict';

const CohortAlerts = (function () {
  const get = (k) => { try { return localStorage.getItem(k) === '1'; } catch { return false; } };
  const set = (k, on) => { try { localStorage.setItem(k, on ? '1' : '0'); } catch { /* private mode */ } };
  let audio = null;

  // A tone: `freqs` one after another, `ms` each (no sound file: an oscillator).
  function tone(freqs, ms) {
    if (!get('cohort-sounds')) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      freqs.forEach((f, i) => {
        const o = audio.createOscillator();
        const g = audio.createGain();
        o.frequency.value = f;
        g.gain.value = 0.08;
        o.connect(g).connect(audio.destination);
        const t = audio.currentTime + (i * ms * 1.4) / 1000;
        o.start(t);
        o.stop(t + ms / 1000);
      });
    } catch { /* no audio here */ }
  }

  const notifyOn = () => get('cohort-notify') && 'Notification' in window && Notification.permission === 'granted';

  return {
    soundsOn: () => get('cohort-sounds'),
    setSounds: (on) => { set('cohort-sounds', on); if (on) tone([660], 60); },
    notifyOn,
    notifySupported: () => 'Notification' in window,
    // Ask the browser's permission (a click's handler), then keep the choice.
    async setNotify(on) {
      if (on && Notification.permission !== 'granted') {
        try { await Notification.requestPermission(); } catch { /* refused */ }
      }
      set('cohort-notify', on && Notification.permission === 'granted');
    },
    // A new view: a tone for the opponent's new steps; "your turn" in the background.
    viewed(before, v, seat, name) {
      if (!before || !seat) return;
      const count = (x) => x.turns.reduce((n, t) => n + t.steps.length, 0) + (x.turn_steps || []).length;
      if (count(v) > count(before) && before.to_move !== seat) tone([660], 60);
      const myTurnNow = !v.result && v.to_move === seat && before.to_move !== seat;
      if (myTurnNow && v.clock && v.clock.kind === 'corr' && document.hidden && notifyOn()) {
        try {
          new Notification('Cohort: your turn', { body: `${name}: ${before.to_move.charAt(0).toUpperCase()}${before.to_move.slice(1)} has played; it is your turn.`, tag: `cohort-${v.id}` });
        } catch { /* not shown */ }
      }
    },
    // The player's own live clock just fell under 10 s.
    lowTime: () => tone([880, 880], 90),
  };
})();
