// Command hy2client is the benchmark peer of `stand tunnel`: the real Hysteria
// 2 client library (github.com/apernet/hysteria/core/v2/client, v2.12.2, the
// version the test server in ../hysteria2-server pins) doing the work `stand
// tunnel` does, so that tests/perf/tunnel_vs_go.sh can compare the two
// clients' throughput and CPU per bit through one server.
//
// The work, as framework/src/tunnel/tunnel_run.cpp does it: one QUIC
// connection (library defaults: BBR, 8 MB stream / 20 MB connection receive
// windows, Hysteria-CC-RX 0), N proxy streams that each send
// "GET /zero HTTP/1.1" to the sink (`stand backend`) and count every byte
// that comes back, and every probe interval (97 ms) one more stream for the
// sink's /small, timed. The window starts before the handshake and ends after
// the duration; bytes are what the streams delivered inside it. A stream that
// ends early counts as dropped and is opened again. There is no reconnect: a
// lost connection ends the run with an error.
//
//	hy2client --server 127.0.0.1:PORT --auth AUTH [--insecure] [--sni NAME]
//	          --sink 127.0.0.1:PORT [--streams N] [-d 10s] [--probe-interval 97ms]
//
// One JSON object goes to stdout. Exit 0 when bytes moved, 1 otherwise or on
// an error, 2 for a usage error.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/apernet/hysteria/core/v2/client"
)

const (
	zeroRequest  = "GET /zero HTTP/1.1\r\nHost: sink\r\n\r\n"
	smallRequest = "GET /small HTTP/1.1\r\nHost: sink\r\nConnection: close\r\n\r\n"
	libraryPath  = "github.com/apernet/hysteria/core/v2"
)

type options struct {
	server        string
	auth          string
	insecure      bool
	sni           string
	sink          string
	streams       int
	duration      time.Duration
	probeInterval time.Duration
	probeTimeout  time.Duration
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("hy2client", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.server, "server", "", "UDP address of the Hysteria 2 server, host:port (required)")
	fs.StringVar(&o.auth, "auth", "", "auth string (required)")
	fs.BoolVar(&o.insecure, "insecure", false, "do not verify the server's certificate")
	fs.StringVar(&o.sni, "sni", "", "TLS server name (default: none for an address)")
	fs.StringVar(&o.sink, "sink", "", "host:port the server dials for each stream (required; `stand backend`)")
	fs.IntVar(&o.streams, "streams", 1, "/zero streams, 1..1024")
	fs.DurationVar(&o.duration, "d", 10*time.Second, "the window")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "the window (same as -d)")
	fs.DurationVar(&o.probeInterval, "probe-interval", 97*time.Millisecond, "a /small probe this often; 0: none")
	fs.DurationVar(&o.probeTimeout, "probe-timeout", 2*time.Second, "a probe slower than this failed")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() != 0 {
		return o, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	switch {
	case o.server == "":
		return o, errors.New("--server is required")
	case o.auth == "":
		return o, errors.New("--auth is required")
	case o.sink == "":
		return o, errors.New("--sink is required")
	case o.streams < 1 || o.streams > 1024:
		return o, fmt.Errorf("--streams must be in 1..1024, got %d", o.streams)
	case o.duration <= 0:
		return o, errors.New("the duration must be positive")
	case o.probeInterval < 0 || o.probeTimeout <= 0:
		return o, errors.New("the probe interval must not be negative and the timeout must be positive")
	}
	return o, nil
}

type probeStats struct {
	Sent      int64   `json:"sent"`
	OK        int64   `json:"ok"`
	Failed    int64   `json:"failed"`
	LatencyUs []int64 `json:"-"`
	P50Us     int64   `json:"p50_us"`
	P99Us     int64   `json:"p99_us"`
}

type result struct {
	Schema         string     `json:"schema"`
	Library        string     `json:"library"`
	Server         string     `json:"server"`
	Sink           string     `json:"sink"`
	Streams        int        `json:"streams"`
	DurationS      float64    `json:"duration_s"`
	HandshakeMs    float64    `json:"handshake_ms"`
	ServerUDP      bool       `json:"server_udp"`
	WindowS        float64    `json:"window_s"`
	Bytes          int64      `json:"bytes"`
	MbitMean       float64    `json:"mbit_mean"`
	StreamsOpened  int64      `json:"streams_opened"`
	StreamsDropped int64      `json:"streams_dropped"`
	Probes         probeStats `json:"probes"`
	CPUS           float64    `json:"cpu_s"`
	MbitPerCPUS    float64    `json:"mbit_per_cpu_s"`
	GOMAXPROCS     string     `json:"gomaxprocs_env,omitempty"`
	Error          string     `json:"error,omitempty"`
}

func libraryVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == libraryPath {
				return m.Path + " " + m.Version
			}
		}
	}
	return libraryPath + " (version unknown)"
}

func processCPUSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

type run struct {
	o      options
	c      client.Client
	open   atomic.Bool
	bytes  atomic.Int64
	opened atomic.Int64
	drops  atomic.Int64
	fatal  chan error

	mu     sync.Mutex
	probes probeStats
	conns  map[net.Conn]struct{}
}

func (r *run) track(conn net.Conn) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.open.Load() {
		return false
	}
	r.conns[conn] = struct{}{}
	return true
}

func (r *run) untrack(conn net.Conn) {
	r.mu.Lock()
	delete(r.conns, conn)
	r.mu.Unlock()
}

func (r *run) fail(err error) {
	select {
	case r.fatal <- err:
	default:
	}
}

// zero keeps one /zero download open until the window closes.
func (r *run) zero(wg *sync.WaitGroup) {
	defer wg.Done()
	buf := make([]byte, 64<<10)
	for r.open.Load() {
		conn, err := r.c.TCP(r.o.sink)
		if err != nil {
			if r.open.Load() {
				r.fail(fmt.Errorf("opening a /zero stream: %w", err))
			}
			return
		}
		r.opened.Add(1)
		if !r.track(conn) {
			_ = conn.Close()
			return
		}
		if _, err = io.WriteString(conn, zeroRequest); err == nil {
			for {
				var n int
				n, err = conn.Read(buf)
				if n > 0 && r.open.Load() {
					r.bytes.Add(int64(n))
				}
				if err != nil {
					break
				}
			}
		}
		r.untrack(conn)
		_ = conn.Close()
		if r.open.Load() {
			r.drops.Add(1)
		}
	}
}

// probe times one /small request on a new stream.
func (r *run) probe(wg *sync.WaitGroup) {
	defer wg.Done()
	started := time.Now()
	ok := func() bool {
		conn, err := r.c.TCP(r.o.sink)
		if err != nil {
			return false
		}
		defer conn.Close()
		if !r.track(conn) {
			return false
		}
		defer r.untrack(conn)
		_ = conn.SetDeadline(started.Add(r.o.probeTimeout))
		if _, err := io.WriteString(conn, smallRequest); err != nil {
			return false
		}
		body, err := io.ReadAll(conn) // the sink closes after the answer (Connection: close)
		return err == nil && strings.HasPrefix(string(body), "HTTP/1.1 200 ")
	}()
	r.mu.Lock()
	defer r.mu.Unlock()
	if ok {
		r.probes.OK++
		r.probes.LatencyUs = append(r.probes.LatencyUs, time.Since(started).Microseconds())
	} else if r.open.Load() {
		r.probes.Failed++
	} else {
		r.probes.Sent-- // cut off by the window's end: not counted
	}
}

func percentile(sorted []int64, p float64) int64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p * float64(len(sorted)-1))
	return sorted[i]
}

func main() {
	o, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "hy2client:", err)
		}
		os.Exit(2)
	}
	res := result{Schema: "stand.tunnel-go/1", Library: libraryVersion(), Server: o.server, Sink: o.sink,
		Streams: o.streams, DurationS: o.duration.Seconds(), GOMAXPROCS: os.Getenv("GOMAXPROCS")}
	emit := func(code int) {
		out, _ := json.Marshal(res)
		fmt.Println(string(out))
		os.Exit(code)
	}
	addr, err := net.ResolveUDPAddr("udp", o.server)
	if err != nil {
		res.Error = "resolving the server: " + err.Error()
		emit(1)
	}

	cpuBefore := processCPUSeconds()
	start := time.Now()
	deadline := time.NewTimer(o.duration) // the window starts before the handshake, as stand's does
	c, info, err := client.NewClient(&client.Config{
		ServerAddr: addr,
		Auth:       o.auth,
		TLSConfig:  client.TLSConfig{ServerName: o.sni, InsecureSkipVerify: o.insecure},
	})
	if err != nil {
		res.Error = "connecting: " + err.Error()
		emit(1)
	}
	res.HandshakeMs = float64(time.Since(start).Microseconds()) / 1e3
	res.ServerUDP = info.UDPEnabled

	r := &run{o: o, c: c, fatal: make(chan error, 1), conns: map[net.Conn]struct{}{}}
	r.open.Store(true)
	var wg sync.WaitGroup
	for i := 0; i < o.streams; i++ {
		wg.Add(1)
		go r.zero(&wg)
	}
	var tick <-chan time.Time
	if o.probeInterval > 0 {
		t := time.NewTicker(o.probeInterval)
		defer t.Stop()
		tick = t.C
	}
loop:
	for {
		select {
		case <-deadline.C:
			break loop
		case err := <-r.fatal:
			res.Error = err.Error()
			break loop
		case <-tick:
			r.mu.Lock()
			r.probes.Sent++
			r.mu.Unlock()
			wg.Add(1)
			go r.probe(&wg)
		}
	}
	r.mu.Lock()
	r.open.Store(false)
	window := time.Since(start)
	total := r.bytes.Load()
	for conn := range r.conns {
		_ = conn.Close()
	}
	r.mu.Unlock()
	_ = c.Close()
	wg.Wait()
	res.CPUS = processCPUSeconds() - cpuBefore

	res.WindowS = window.Seconds()
	res.Bytes = total
	res.MbitMean = float64(total) * 8 / 1e6 / res.WindowS
	res.StreamsOpened = r.opened.Load()
	res.StreamsDropped = r.drops.Load()
	res.Probes = r.probes
	sort.Slice(res.Probes.LatencyUs, func(i, j int) bool { return res.Probes.LatencyUs[i] < res.Probes.LatencyUs[j] })
	res.Probes.P50Us = percentile(res.Probes.LatencyUs, 0.50)
	res.Probes.P99Us = percentile(res.Probes.LatencyUs, 0.99)
	if res.CPUS > 0 {
		res.MbitPerCPUS = float64(total) * 8 / 1e6 / res.CPUS
	}
	if res.Error == "" && total == 0 {
		res.Error = "no byte came through the tunnel"
	}
	if res.Error != "" {
		emit(1)
	}
	emit(0)
}
