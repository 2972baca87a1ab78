package main

import (
	"log"
	"net"
	"sync/atomic"
)

// stats holds the counters behind GET /stats and is the library's
// server.EventLogger. The library calls Connect after a successful auth,
// Disconnect when an authenticated connection ends, TCPRequest once per
// proxied stream (after the request header is read, before dialing) and
// TCPError exactly once per TCPRequest: with the dial error, or when the
// proxying ends (err may then be nil or io.EOF).
type stats struct {
	log *log.Logger

	authOK           atomic.Int64
	authFail         atomic.Int64
	connectionsOpen  atomic.Int64
	connectionsTotal atomic.Int64
	tcpStreamsTotal  atomic.Int64
	tcpStreamsOpen   atomic.Int64
	udpSessionsTotal atomic.Int64
	restarts         atomic.Int64
}

type statsSnapshot struct {
	AuthOK           int64 `json:"auth_ok"`
	AuthFail         int64 `json:"auth_fail"`
	ConnectionsOpen  int64 `json:"connections_open"`
	ConnectionsTotal int64 `json:"connections_total"`
	TCPStreamsTotal  int64 `json:"tcp_streams_total"`
	TCPStreamsOpen   int64 `json:"tcp_streams_open"`
	UDPSessionsTotal int64 `json:"udp_sessions_total"`
	Restarts         int64 `json:"restarts"`
	Users            int   `json:"users"`
}

func (s *stats) snapshot(users int) statsSnapshot {
	return statsSnapshot{
		AuthOK:           s.authOK.Load(),
		AuthFail:         s.authFail.Load(),
		ConnectionsOpen:  s.connectionsOpen.Load(),
		ConnectionsTotal: s.connectionsTotal.Load(),
		TCPStreamsTotal:  s.tcpStreamsTotal.Load(),
		TCPStreamsOpen:   s.tcpStreamsOpen.Load(),
		UDPSessionsTotal: s.udpSessionsTotal.Load(),
		Restarts:         s.restarts.Load(),
		Users:            users,
	}
}

func (s *stats) logf(format string, args ...any) {
	if s.log != nil {
		s.log.Printf(format, args...)
	}
}

func (s *stats) Connect(addr net.Addr, id string, tx uint64) {
	s.connectionsTotal.Add(1)
	s.connectionsOpen.Add(1)
	s.logf("connect addr=%s user=%q tx=%d", addr, id, tx)
}

func (s *stats) Disconnect(addr net.Addr, id string, err error) {
	s.connectionsOpen.Add(-1)
	s.logf("disconnect addr=%s user=%q err=%v", addr, id, err)
}

func (s *stats) TCPRequest(addr net.Addr, id, reqAddr string) {
	s.tcpStreamsTotal.Add(1)
	s.tcpStreamsOpen.Add(1)
	s.logf("tcp request addr=%s user=%q target=%s", addr, id, reqAddr)
}

func (s *stats) TCPError(addr net.Addr, id, reqAddr string, err error) {
	s.tcpStreamsOpen.Add(-1)
	s.logf("tcp end addr=%s user=%q target=%s err=%v", addr, id, reqAddr, err)
}

func (s *stats) UDPRequest(addr net.Addr, id string, sessionID uint32, reqAddr string) {
	s.udpSessionsTotal.Add(1)
	s.logf("udp request addr=%s user=%q session=%d target=%s", addr, id, sessionID, reqAddr)
}

func (s *stats) UDPError(addr net.Addr, id string, sessionID uint32, err error) {
	s.logf("udp end addr=%s user=%q session=%d err=%v", addr, id, sessionID, err)
}
