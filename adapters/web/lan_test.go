package web

import (
	"net"
	"strings"
	"testing"
)

func TestLinksInLANModeNameAReachableAddress(t *testing.T) {
	ips := []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("fe80::1"), net.ParseIP("203.0.113.7"), net.ParseIP("192.168.1.20"), net.ParseIP("fd00::5")}
	if got := reachableIP(ips, false); got != "192.168.1.20" {
		t.Errorf("reachable address of %v: %s, want the private IPv4 192.168.1.20", ips, got)
	}
	if got := reachableIP(ips[:2], false); got != "127.0.0.1" {
		t.Errorf("with only loopback and link-local: %s, want 127.0.0.1", got)
	}
	u := baseURL(&net.TCPAddr{IP: net.IPv4zero, Port: 8080})
	if strings.Contains(u, "0.0.0.0") {
		t.Errorf("LAN-mode URL %s names the unspecified address", u)
	}
	want := reachableIP(interfaceIPs(), false)
	if u != "http://"+net.JoinHostPort(want, "8080")+"/" {
		t.Errorf("LAN-mode URL %s; want this machine's address %s", u, want)
	}
}
