import { describe, expect, it } from "vitest";
import { isPublicAddress, targetUrlProblem } from "./address-policy";

describe("isPublicAddress", () => {
  it.each([
    "127.0.0.1", "127.255.0.9", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "0.0.0.0",
    "0.1.2.3", "100.64.0.1", "100.127.255.255", "224.0.0.1", "255.255.255.255", "192.0.2.10",
    "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254",
    "64:ff9b::a00:1", "2002:a00:1::1", "ff02::1", "2001:db8::1", "not-an-ip",
    // IPv4-compatible ::/96 (deprecated), which ipaddr.js calls unicast: the metadata address, loopback, any.
    "::a9fe:a9fe", "::7f00:1", "::127.0.0.1", "::8.8.8.8",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["8.8.8.8", "93.184.216.34", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("accepts %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe("targetUrlProblem", () => {
  it.each([
    "http://127.0.0.1/hook", "http://10.1.2.3:8080/", "http://[::1]/", "http://169.254.169.254/latest/meta-data", "https://0.0.0.0/",
    "http://[::ffff:7f00:1]/", "http://[::a9fe:a9fe]/", "http://[::7f00:1]/", "http://[fe80::1]/", "http://[fd00::1]/", "http://100.64.1.1/", "http://172.16.5.4/", "http://192.168.0.10/",
    // Other spellings of 127.0.0.1 the URL parser normalises.
    "http://2130706433/", "http://0x7f.0.0.1/", "http://127.1/",
    "http://localhost:3000/", "http://api.localhost/", "http://intranet/hook",
  ])("refuses %s", (url) => {
    expect(targetUrlProblem(url, false)).toEqual(expect.any(String));
  });

  it.each(["ftp://example.com/", "file:///etc/passwd", "javascript:alert(1)", "not a url", "https://user:pw@example.com/", "https://example.com/#x"])(
    "refuses %s even when private targets are allowed",
    (url) => {
      expect(targetUrlProblem(url, true)).toEqual(expect.any(String));
    },
  );

  it("accepts public hosts, and private ones only when allowed", () => {
    expect(targetUrlProblem("https://hooks.example.com/booking?x=1", false)).toBeUndefined();
    expect(targetUrlProblem("http://93.184.216.34:8080/", false)).toBeUndefined();
    expect(targetUrlProblem("http://127.0.0.1:9999/hook", true)).toBeUndefined();
    expect(targetUrlProblem("http://localhost:9999/hook", true)).toBeUndefined();
  });
});
