package main

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
	"time"

	"github.com/apernet/hysteria/core/v2/server"
)

// loopbackOutbound is the server.Outbound: direct TCP and UDP, but only to
// loopback addresses (127.0.0.0/8, ::1, "localhost"). The benchmark must
// never send load off the machine, so anything else is refused before any
// packet leaves, and the dialer re-checks the address it actually connects to.
type loopbackOutbound struct{}

var errNotLoopback = errors.New("refused: only loopback targets are allowed")

// loopbackTarget validates a "host:port" request without any DNS lookup and
// returns the address to dial.
func loopbackTarget(reqAddr string) (string, error) {
	host, port, err := net.SplitHostPort(reqAddr)
	if err != nil {
		return "", err
	}
	if strings.EqualFold(host, "localhost") {
		return net.JoinHostPort("127.0.0.1", port), nil
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.Unmap().IsLoopback() {
		return "", fmt.Errorf("%w: %s", errNotLoopback, reqAddr)
	}
	return net.JoinHostPort(ip.Unmap().String(), port), nil
}

func isLoopbackAddrPort(s string) bool {
	ap, err := netip.ParseAddrPort(s)
	return err == nil && ap.Addr().Unmap().IsLoopback()
}

var loopbackDialer = net.Dialer{
	Timeout: 10 * time.Second,
	Control: func(network, address string, _ syscall.RawConn) error {
		if !isLoopbackAddrPort(address) {
			return fmt.Errorf("%w: %s", errNotLoopback, address)
		}
		return nil
	},
}

func (loopbackOutbound) TCP(reqAddr string) (net.Conn, error) {
	target, err := loopbackTarget(reqAddr)
	if err != nil {
		return nil, err
	}
	return loopbackDialer.Dial("tcp", target)
}

func (loopbackOutbound) CheckUDP(reqAddr string) error {
	_, err := loopbackTarget(reqAddr)
	return err
}

func (loopbackOutbound) UDP(reqAddr string) (server.UDPConn, error) {
	if _, err := loopbackTarget(reqAddr); err != nil {
		return nil, err
	}
	// Full-cone like the library's default, but every destination is checked
	// and datagrams from non-loopback sources are dropped.
	c, err := net.ListenUDP("udp", nil)
	if err != nil {
		return nil, err
	}
	return &loopbackUDPConn{c}, nil
}

type loopbackUDPConn struct{ c *net.UDPConn }

func (l *loopbackUDPConn) ReadFrom(b []byte) (int, string, error) {
	for {
		n, ap, err := l.c.ReadFromUDPAddrPort(b)
		if err != nil {
			return n, "", err
		}
		if ap.Addr().Unmap().IsLoopback() {
			return n, netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()).String(), nil
		}
	}
}

func (l *loopbackUDPConn) WriteTo(b []byte, addr string) (int, error) {
	target, err := loopbackTarget(addr)
	if err != nil {
		return 0, err
	}
	ap, err := netip.ParseAddrPort(target)
	if err != nil {
		return 0, err
	}
	return l.c.WriteToUDPAddrPort(b, ap)
}

func (l *loopbackUDPConn) Close() error { return l.c.Close() }
