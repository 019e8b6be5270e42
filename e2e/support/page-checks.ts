import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

// What every page must pass, as a person using it would need: no serious or critical axe
// violation, and nothing wider than the screen.

export async function expectAccessible(page: Page) {
  // Next.js streams a page's metadata after its content: the <title> may land a moment after the
  // heading a test waited for. Every page has one; check the page as it is once it arrived.
  await expect(page).toHaveTitle(/\S/);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

export async function expectNoSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll).toBeLessThanOrEqual(client);
}
