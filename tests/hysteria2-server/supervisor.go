package main

import (
	"crypto/rand"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"sync"

	"github.com/apernet/hysteria/core/v2/server"
	"github.com/apernet/hysteria/extras/v2/obfs"
	"github.com/apernet/quic-go"
)

// supervisor owns the running Hysteria server and can replace it with a
// fresh one on the same UDP address ("restart"). Closing a library server
// closes its quic.Transport, which drops every QUIC connection and stream
// without a CONNECTION_CLOSE. All generations share one stateless-reset key,
// so the next packet an old client sends is answered by the new server with
// a stateless reset and the client learns at once that its connection is
// gone (instead of waiting for its idle timeout).
type supervisor struct {
	cert         tls.Certificate
	obfsPassword string
	maxTx        uint64 // bytes/s; 0: client bandwidth ignored
	users        *userStore
	stats        *stats
	traffic      *traffic
	resetKey     quic.StatelessResetKey

	mu      sync.Mutex
	addr    *net.UDPAddr // the bound address; fixed after the first start
	srv     server.Server
	served  chan struct{} // closed when srv.Serve returns
	running bool
}

func newSupervisor(listen *net.UDPAddr, cert tls.Certificate, obfsPassword string, maxTx uint64, users *userStore, st *stats,
	tr *traffic) (*supervisor, error) {
	s := &supervisor{cert: cert, obfsPassword: obfsPassword, maxTx: maxTx, users: users, stats: st, traffic: tr, addr: listen}
	if _, err := rand.Read(s.resetKey[:]); err != nil {
		return nil, err
	}
	return s, nil
}

// start brings up the first server generation.
func (s *supervisor) start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.startLocked()
}

func (s *supervisor) startLocked() error {
	udp, err := net.ListenUDP("udp", s.addr)
	if err != nil {
		return err
	}
	s.addr = udp.LocalAddr().(*net.UDPAddr) // resolve port 0 once, reuse on restart
	var pc net.PacketConn = udp
	if s.obfsPassword != "" {
		if pc, err = obfs.WrapPacketConnSalamander(udp, []byte(s.obfsPassword)); err != nil {
			_ = udp.Close()
			return fmt.Errorf("salamander: %w", err)
		}
	}
	srv, err := server.NewServer(&server.Config{
		TLSConfig:         server.TLSConfig{Certificates: []tls.Certificate{s.cert}},
		Conn:              pc,
		StatelessResetKey: &s.resetKey,
		Outbound:          loopbackOutbound{},
		// Without --max-tx-mbit: no BandwidthConfig, and with
		// IgnoreClientBandwidth it answers "Hysteria-CC-RX: auto", so neither
		// side switches to Brutal; both use their configured CC (BBR default).
		// With it: a client's declared rx (capped) is sent with Brutal.
		BandwidthConfig:       server.BandwidthConfig{MaxTx: s.maxTx},
		IgnoreClientBandwidth: s.maxTx == 0,
		Authenticator:         s.users,
		EventLogger:           s.stats,
		TrafficLogger:         s.traffic,
	})
	if err != nil { // NewServer closes pc itself on listen errors
		_ = pc.Close()
		return err
	}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = srv.Serve()
	}()
	s.srv, s.served, s.running = srv, served, true
	return nil
}

func (s *supervisor) stopLocked() error {
	if !s.running {
		return nil
	}
	err := s.srv.Close()
	<-s.served
	s.srv, s.served, s.running = nil, nil, false
	return err
}

// restart closes the current server (dropping all connections) and starts a
// new one on the same address.
func (s *supervisor) restart() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.stopLocked(); err != nil && !errors.Is(err, net.ErrClosed) {
		s.stats.logf("restart: close: %v", err)
	}
	if err := s.startLocked(); err != nil {
		s.stats.logf("restart: start failed: %v", err)
		return err
	}
	n := s.stats.restarts.Add(1)
	s.stats.logf("restart n=%d udp=%s users=%d", n, s.addr, s.users.count())
	return nil
}

func (s *supervisor) stop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopLocked()
}

func (s *supervisor) ready() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running
}

func (s *supervisor) udpAddr() *net.UDPAddr {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}
