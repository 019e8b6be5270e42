import { describe, expect, it } from "vitest";
import { amountInput, formatMoney, isCurrency, minorDigits, parseAmount } from "./money";

// Money in minor units, as Stripe counts them, shown and read in the reader's locale.

describe("minor units", () => {
  it("follow Stripe: cents, whole yen, thousandths of a dinar", () => {
    expect([minorDigits("eur"), minorDigits("jpy"), minorDigits("krw"), minorDigits("bhd")]).toEqual([2, 0, 0, 3]);
  });

  it("take real ISO 4217 codes in lower case only", () => {
    expect(isCurrency("eur")).toBe(true);
    expect(isCurrency("EUR")).toBe(false);
    expect(isCurrency("xyz")).toBe(false);
    expect(isCurrency("euro")).toBe(false);
  });
});

describe("an amount as a reader sees it", () => {
  it("is in the reader's locale", () => {
    expect(formatMoney(4990, "eur", "en")).toBe("€49.90");
    expect(formatMoney(4990, "eur", "de")).toBe("49,90\u00a0€");
    expect(formatMoney(4990, "eur", "fr")).toBe("49,90\u00a0€");
    expect(formatMoney(5000, "jpy", "en")).toBe("¥5,000");
    expect(formatMoney(5125, "bhd", "en")).toBe("BHD\u00a05.125");
  });
});

describe("an amount as a host types it", () => {
  it("reads their locale's decimal mark and group marks", () => {
    expect(parseAmount("49,90", "eur", "de")).toBe(4990);
    expect(parseAmount("1.250,00", "eur", "de")).toBe(125000);
    expect(parseAmount("1,250.00", "usd", "en")).toBe(125000);
    expect(parseAmount("49.90", "usd", "en")).toBe(4990);
    expect(parseAmount(" 60 ", "eur", "de")).toBe(6000);
    expect(parseAmount("5000", "jpy", "en")).toBe(5000);
  });

  it("takes a point for the decimal in German when it cannot be a group mark", () => {
    expect(parseAmount("49.90", "eur", "de")).toBe(4990);
    expect(parseAmount("1.250", "eur", "de")).toBe(125000);
  });

  it("refuses what is no amount, or has more decimals than the currency", () => {
    for (const [text, currency, locale] of [["", "eur", "en"], ["abc", "eur", "en"], ["49.5", "jpy", "en"], ["4.999", "eur", "en"], ["-5", "eur", "en"], ["49,90", "eur", "en"]]) {
      expect(parseAmount(text!, currency!, locale!), text).toBeUndefined();
    }
  });

  it("reads back what the form shows", () => {
    for (const locale of ["en", "de", "fr", "es", "pt"]) {
      for (const [amount, currency] of [[4990, "eur"], [125000, "eur"], [5000, "jpy"], [5125, "bhd"]] as const) {
        expect(parseAmount(amountInput(amount, currency, locale), currency, locale), `${locale} ${currency}`).toBe(amount);
      }
    }
  });
});
