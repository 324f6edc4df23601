// Runs before the player's script in the browser tests (tests/player.rs):
// gathers errors, refused content and alerts for tests.js to report.
'use strict';
window.testResults = { errors: [], refused: [], alerts: 0 };
window.addEventListener('error', (e) => window.testResults.errors.push(String(e.message)));
document.addEventListener('securitypolicyviolation', (e) =>
  window.testResults.refused.push(e.violatedDirective + ' ' + e.blockedURI));
window.alert = () => { window.testResults.alerts += 1; };
const consoleError = console.error;
console.error = (...args) => {
  window.testResults.errors.push(args.map(String).join(' '));
  consoleError.apply(console, args);
};
