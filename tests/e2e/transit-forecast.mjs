// The forecast both forecast.test.mjs and ledger.test.mjs run against the stand-in's
// e2e-forecast.json script: three outcomes (Passes, Fails, Delayed to next session) and the
// seed's five roles over three rounds.
import { addConnection } from './harness.mjs';

/** Adds the stand-in's connection and fills the setup form with the transit-bill forecast
 * (not started). */
export async function setUpTransitForecast(page, standin) {
  await addConnection(page, { name: 'Stand-in', url: `${standin.base}/v1`, model: 'standin', callHeader: true });
  await page.getByRole('radio', { name: 'Forecast' }).check();
  await page.fill('#topic', 'Will the transit bill pass this year?');
  await page.getByLabel('Outcome 1 label').fill('Passes');
  await page.getByLabel('Outcome 2 label').fill('Fails');
  await page.click('#add-outcome');
  await page.getByLabel('Outcome 3 id').fill('delay');
  await page.getByLabel('Outcome 3 label').fill('Delayed to next session');
}
