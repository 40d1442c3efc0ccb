package events

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Receivers decides which addresses a webhook may reach: public ones, and
// the ranges an operator allows. A webhook URL is checked when it is
// saved (its host, in whatever notation, and every address its name
// resolves to) and again on every delivery, at the moment of connecting,
// so that a name that later resolves to an internal address (DNS
// rebinding) is refused too.
type Receivers struct {
	// Allowed are ranges an operator allows although they are not
	// public (a receiver inside the company network).
	Allowed []netip.Prefix
	// Lookup resolves a host name; net.DefaultResolver's by default.
	Lookup func(ctx context.Context, host string) ([]netip.Addr, error)
}

// internal are the ranges no webhook reaches unless allowed: this host,
// private networks, link-local (cloud metadata services among them),
// shared and reserved address space, multicast. Addresses embedding an
// IPv4 one (mapped, NAT64, 6to4) are judged by it.
var internal = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"), netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("169.254.0.0/16"), netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.0.0.0/24"), netip.MustParsePrefix("192.0.2.0/24"), netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("198.18.0.0/15"), netip.MustParsePrefix("198.51.100.0/24"), netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("224.0.0.0/4"), netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("::/128"), netip.MustParsePrefix("::1/128"), netip.MustParsePrefix("100::/64"),
	netip.MustParsePrefix("2001:db8::/32"), netip.MustParsePrefix("fc00::/7"), netip.MustParsePrefix("fe80::/10"),
	netip.MustParsePrefix("fec0::/10"), netip.MustParsePrefix("ff00::/8"),
}

// embedded is the IPv4 address an IPv6 one carries (IPv4-mapped,
// IPv4-compatible, NAT64 64:ff9b::/96, 6to4 2002::/16), if any.
func embedded(a netip.Addr) (netip.Addr, bool) {
	if a.Is4() {
		return a, false
	}
	if a.Is4In6() {
		return a.Unmap(), true
	}
	b := a.As16()
	switch {
	case netip.MustParsePrefix("64:ff9b::/96").Contains(a), netip.MustParsePrefix("::/96").Contains(a) && !a.IsUnspecified() && !a.IsLoopback():
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case netip.MustParsePrefix("2002::/16").Contains(a):
		return netip.AddrFrom4([4]byte(b[2:6])), true
	}
	return a, false
}

// Refusal says why an address may not be a webhook's, or "" when it may.
func (rc Receivers) Refusal(a netip.Addr) string {
	a = a.WithZone("")
	for _, p := range rc.Allowed {
		if p.Contains(a) {
			return ""
		}
	}
	if inner, ok := embedded(a); ok {
		if why := rc.Refusal(inner); why != "" {
			return why + " (inside " + a.String() + ")"
		}
		return ""
	}
	for _, p := range internal {
		if p.Contains(a) {
			return fmt.Sprintf("%s is an internal address (%s); webhooks reach public receivers, or ranges the platform allows (webhooks.allowed_networks)", a, p)
		}
	}
	return ""
}

// literal reads a host written as an IP address in any notation a
// resolver would take: dotted, hexadecimal, octal or a single number
// (inet_aton's forms: 0x7f.1, 017700000001, 2130706433), or IPv6.
func literal(host string) (netip.Addr, bool) {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if a, err := netip.ParseAddr(host); err == nil {
		return a, true
	}
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 0, 32) // 0x.., 0.. and decimal, as inet_aton reads them
		if err != nil || p == "" {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	// The last part fills the bytes the earlier ones leave.
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (24 - 8*i)
	}
	last := nums[len(nums)-1]
	if last >= 1<<(32-8*(len(nums)-1)) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// CheckHost refuses a host that is, or resolves to, an address a webhook
// may not reach; an unknown name is refused too.
func (rc Receivers) CheckHost(ctx context.Context, host string) error {
	if a, ok := literal(host); ok {
		if why := rc.Refusal(a); why != "" {
			return fmt.Errorf("%s", why)
		}
		return nil
	}
	lookup := rc.Lookup
	if lookup == nil {
		lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	addrs, err := lookup(ctx, host)
	if err != nil || len(addrs) == 0 {
		return fmt.Errorf("%s does not resolve to an address", host)
	}
	for _, a := range addrs {
		if why := rc.Refusal(a); why != "" {
			return fmt.Errorf("%s resolves to %s", host, why)
		}
	}
	return nil
}

// Dialer connects only to addresses a webhook may reach: the check runs
// on the address actually dialed, after resolution.
func (rc Receivers) Dialer(timeout time.Duration) *net.Dialer {
	return &net.Dialer{Timeout: timeout, Control: func(_, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		a, err := netip.ParseAddr(host)
		if err != nil {
			return fmt.Errorf("webhook receiver %s: %w", address, err)
		}
		if why := rc.Refusal(a); why != "" {
			return fmt.Errorf("webhook receiver refused: %s", why)
		}
		return nil
	}}
}

// Transport carries deliveries to the receivers only, never through a
// proxy (which would connect where the portal cannot check).
func (rc Receivers) Transport() *http.Transport {
	return &http.Transport{DialContext: rc.Dialer(5 * time.Second).DialContext, ForceAttemptHTTP2: true,
		TLSHandshakeTimeout: 5 * time.Second, MaxIdleConnsPerHost: 4, IdleConnTimeout: 90 * time.Second}
}
