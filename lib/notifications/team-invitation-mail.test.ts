import { describe, expect, it } from "vitest";
import { composeTeamInvitationMail } from "./account-mail";

// The team invitation email: who invites to which team, the way to answer (the dashboard, or a
// sign-up link), in the language asked for; the names other people chose are text, never HTML.

const base = { from: "Booking <no-reply@booking.test>", messageId: "<tinv_1@booking.test>", days: 7, inviterName: "Ann Owner" };

describe("a team invitation email", () => {
  it("points a host with an account to the invitations, by name", async () => {
    const mail = await composeTeamInvitationMail({
      ...base,
      to: { name: "Hal Host", address: "hal@example.com" },
      locale: "en",
      hasAccount: true,
      teamName: "Sales",
      url: "http://booking.test/dashboard/teams",
    });
    expect(mail.subject).toBe("Ann Owner invited you to join Sales");
    expect(mail.text).toBe(
      [
        "Hi Hal Host,",
        "",
        "Ann Owner invited you to join the team “Sales”: its members share event types and host its bookings.",
        "",
        "Accept or decline it on your dashboard. It waits for your answer for 7 days:",
        "",
        "See the invitation: http://booking.test/dashboard/teams",
        "",
        "If you do not want to join, ignore this message: nothing changes.",
        "",
      ].join("\n"),
    );
    expect(String(mail.html)).toMatch(/<a href="http:\/\/booking\.test\/dashboard\/teams"[^>]*>(?:(?!<\/a>)[\s\S])*See the invitation(?:(?!<\/a>)[\s\S])*<\/a>/);
  });

  it("gives an address without an account the sign-up link, in French, and escapes the team's name", async () => {
    const mail = await composeTeamInvitationMail({
      ...base,
      inviterName: null,
      to: { name: "", address: "new@example.com" },
      locale: "fr",
      hasAccount: false,
      teamName: "<b>Ventes</b>",
      url: "http://booking.test/register?invitation=abc",
    });
    expect(mail.subject).toBe("Quelqu’un vous invite à rejoindre <b>Ventes</b>");
    expect(mail.text).toContain("Bonjour,\n");
    expect(mail.text).toMatch(/Le lien fonctionne une fois, pendant 7 jours\u202f:\n\nCréer votre compte\u202f: http:\/\/booking\.test\/register\?invitation=abc/);
    expect(mail.html).toContain("&lt;b&gt;Ventes&lt;/b&gt;");
    expect(mail.html).not.toContain("<b>Ventes");
    expect(String(mail.html)).toMatch(/<a href="http:\/\/booking\.test\/register\?invitation=abc"[^>]*>(?:(?!<\/a>)[\s\S])*Créer votre compte(?:(?!<\/a>)[\s\S])*<\/a>/);
  });
});
