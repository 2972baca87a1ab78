package main

// Self-test: our server (in-process, and once as a subprocess) against the
// REAL Hysteria 2 client library, github.com/apernet/hysteria/core/v2/client.

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/apernet/hysteria/core/v2/client"
	coreErrs "github.com/apernet/hysteria/core/v2/errors"
	"github.com/apernet/hysteria/extras/v2/obfs"
	"golang.org/x/crypto/blake2b"
)

const asMainEnv = "HY2SERVER_SELFTEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMainEnv) == "1" {
		// Re-executed by TestSubprocess: behave exactly like the binary.
		main()
		return
	}
	os.Exit(m.Run())
}

// ---- fixtures ----------------------------------------------------------

type certFiles struct {
	cert, key string
	pool      *x509.CertPool
}

func genCert(t *testing.T) certFiles {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "localhost"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cf := certFiles{cert: filepath.Join(dir, "cert.pem"), key: filepath.Join(dir, "key.pem"), pool: x509.NewCertPool()}
	must(t, os.WriteFile(cf.cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	must(t, os.WriteFile(cf.key, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600))
	parsed, err := x509.ParseCertificate(der)
	must(t, err)
	cf.pool.AddCert(parsed)
	return cf
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// tcpEcho starts a loopback TCP echo server and returns its address.
func tcpEcho(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); _, _ = io.Copy(c, c) }()
		}
	}()
	return ln.Addr().String()
}

func udpEcho(t *testing.T) string {
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	must(t, err)
	t.Cleanup(func() { c.Close() })
	go func() {
		buf := make([]byte, 4096)
		for {
			n, a, err := c.ReadFromUDP(buf)
			if err != nil {
				return
			}
			_, _ = c.WriteToUDP(buf[:n], a)
		}
	}()
	return c.LocalAddr().String()
}

// testLog forwards server log lines to t.Log until the test ends (the
// library reports disconnects asynchronously, possibly after the test).
type testLog struct {
	mu   sync.Mutex
	t    *testing.T
	done bool
}

func (w *testLog) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done {
		w.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

type harness struct {
	t    *testing.T
	app  *app
	cf   certFiles
	obfs string
	ctl  string
}

func startServer(t *testing.T, restartOnChange bool, obfsPW string, users ...string) *harness {
	t.Helper()
	cf := genCert(t)
	usersFile := filepath.Join(t.TempDir(), "users.txt")
	must(t, os.WriteFile(usersFile, []byte(strings.Join(users, "\n")+"\n\n"), 0o600))
	tl := &testLog{t: t}
	a, err := startApp(config{
		listen: "127.0.0.1:0", certFile: cf.cert, keyFile: cf.key, controlAddr: "127.0.0.1:0",
		usersFile: usersFile, restartOnChange: restartOnChange, obfsPassword: obfsPW,
	}, log.New(tl, "", log.Lmicroseconds))
	must(t, err)
	t.Cleanup(func() {
		a.close()
		tl.mu.Lock()
		tl.done = true
		tl.mu.Unlock()
	})
	return &harness{t: t, app: a, cf: cf, obfs: obfsPW, ctl: "http://" + a.controlAddr().String()}
}

// salamanderFactory is a client.ConnFactory giving the client the library's
// Salamander-wrapped UDP socket.
type salamanderFactory struct{ psk string }

func (f salamanderFactory) New(net.Addr) (net.PacketConn, error) {
	c, err := net.ListenUDP("udp", nil)
	if err != nil {
		return nil, err
	}
	return obfs.WrapPacketConnSalamander(c, []byte(f.psk))
}

func (h *harness) dial(auth, obfsPW string) (client.Client, error) {
	cfg := &client.Config{
		ServerAddr: h.app.udpAddr(),
		Auth:       auth,
		TLSConfig:  client.TLSConfig{ServerName: "localhost", RootCAs: h.cf.pool},
	}
	if obfsPW != "" {
		cfg.ConnFactory = salamanderFactory{obfsPW}
	}
	c, _, err := client.NewClient(cfg)
	return c, err
}

func (h *harness) mustDial(auth string) client.Client {
	h.t.Helper()
	c, err := h.dial(auth, h.obfs)
	if err != nil {
		h.t.Fatalf("dial %q: %v", auth, err)
	}
	h.t.Cleanup(func() { c.Close() })
	return c
}

func (h *harness) do(method, path string) (int, string) {
	h.t.Helper()
	req, err := http.NewRequest(method, h.ctl+path, nil)
	must(h.t, err)
	resp, err := http.DefaultClient.Do(req)
	must(h.t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (h *harness) stats() statsSnapshot {
	h.t.Helper()
	code, body := h.do("GET", "/stats")
	if code != 200 {
		h.t.Fatalf("GET /stats: %d %s", code, body)
	}
	var s statsSnapshot
	must(h.t, json.Unmarshal([]byte(body), &s))
	return s
}

// waitStats polls /stats until cond holds (the library reports stream and
// connection ends asynchronously).
func (h *harness) waitStats(what string, cond func(statsSnapshot) bool) statsSnapshot {
	h.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		s := h.stats()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("stats never reached %s: %+v", what, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func roundTrip(c net.Conn, payload []byte) error {
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	defer c.SetDeadline(time.Time{})
	errc := make(chan error, 1)
	go func() { _, err := c.Write(payload); errc <- err }()
	got := make([]byte, len(payload))
	if _, err := io.ReadFull(c, got); err != nil {
		return err
	}
	if err := <-errc; err != nil {
		return err
	}
	if !bytes.Equal(got, payload) {
		return errors.New("echo mismatch")
	}
	return nil
}

func randBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}

// ---- tests -------------------------------------------------------------

func TestAuthTCPUDPStatsAndControl(t *testing.T) {
	h := startServer(t, false, "", "alice")
	echo := tcpEcho(t)

	if code, _ := h.do("GET", "/ready"); code != 200 {
		t.Fatalf("GET /ready = %d", code)
	}

	// Wrong password: the server masquerades as a plain HTTP/3 server (404).
	_, err := h.dial("wrong", "")
	var ae coreErrs.AuthError
	if !errors.As(err, &ae) || ae.StatusCode != http.StatusNotFound {
		t.Fatalf("wrong auth: want AuthError{404}, got %v", err)
	}

	c := h.mustDial("alice")
	s := h.waitStats("connect", func(s statsSnapshot) bool { return s.ConnectionsOpen == 1 })
	if s.AuthOK != 1 || s.AuthFail != 1 || s.ConnectionsTotal != 1 || s.Users != 1 {
		t.Fatalf("after auth: %+v", s)
	}

	conn, err := c.TCP(echo)
	must(t, err)
	must(t, roundTrip(conn, randBytes(256<<10)))
	s = h.stats()
	if s.TCPStreamsTotal != 1 || s.TCPStreamsOpen != 1 {
		t.Fatalf("with one stream: %+v", s)
	}
	conn.Close()
	h.waitStats("stream closed", func(s statsSnapshot) bool { return s.TCPStreamsOpen == 0 })
	// Every proxied byte counted for the user, each way (the echo sends it all back).
	code, body := h.do("GET", "/traffic")
	var tr map[string]userTraffic
	must(t, json.Unmarshal([]byte(body), &tr))
	if code != 200 || tr["alice"].Tx != 256<<10 || tr["alice"].Rx != 256<<10 || len(tr) != 1 {
		t.Fatalf("GET /traffic after 256 KiB echoed: %d %s", code, body)
	}

	// "localhost" is loopback too.
	_, port, _ := net.SplitHostPort(echo)
	conn, err = c.TCP("localhost:" + port)
	must(t, err)
	must(t, roundTrip(conn, []byte("via localhost")))
	conn.Close()

	// Non-loopback targets are refused by the server.
	for _, target := range []string{"192.0.2.1:80", "example.com:80", "[2001:db8::1]:443"} {
		_, err = c.TCP(target)
		var de coreErrs.DialError
		if !errors.As(err, &de) || !strings.Contains(de.Message, "only loopback") {
			t.Fatalf("TCP %s: want refusal DialError, got %v", target, err)
		}
	}

	// UDP relay to a loopback echo.
	uecho := udpEcho(t)
	u, err := c.UDP()
	must(t, err)
	must(t, u.Send([]byte("udp ping"), uecho))
	gotc := make(chan string, 1)
	go func() {
		b, from, err := u.Receive()
		if err == nil {
			gotc <- string(b) + " from " + from
		}
	}()
	select {
	case got := <-gotc:
		if got != "udp ping from "+uecho {
			t.Fatalf("udp echo: %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("udp echo timeout")
	}
	u.Close()

	// Control API.
	if code, _ := h.do("PUT", "/users/bob"); code != 204 {
		t.Fatalf("PUT bob = %d", code)
	}
	if code, _ := h.do("PUT", "/users/with%2Fslash%20and%20space"); code != 204 {
		t.Fatalf("PUT encoded = %d", code)
	}
	if code, body := h.do("GET", "/users"); code != 200 || strings.TrimSpace(body) != `["alice","bob","with/slash and space"]` {
		t.Fatalf("GET /users = %d %s", code, body)
	}
	if code, _ := h.do("DELETE", "/users/nobody"); code != 404 {
		t.Fatalf("DELETE nobody = %d", code)
	}
	if code, _ := h.do("DELETE", "/users/with%2Fslash%20and%20space"); code != 204 {
		t.Fatalf("DELETE encoded = %d", code)
	}
	c2 := h.mustDial("bob")
	c2.Close()
	c.Close()
	s = h.waitStats("all closed", func(s statsSnapshot) bool { return s.ConnectionsOpen == 0 && s.TCPStreamsOpen == 0 })
	want := statsSnapshot{AuthOK: 2, AuthFail: 1, ConnectionsTotal: 2, TCPStreamsTotal: 5, UDPSessionsTotal: 1, Users: 2}
	if s != want {
		t.Fatalf("final stats %+v, want %+v", s, want)
	}
}

func TestRestartOnChangeDropsConnections(t *testing.T) {
	h := startServer(t, true, "", "alice")
	echo := tcpEcho(t)
	c := h.mustDial("alice")
	conn, err := c.TCP(echo)
	must(t, err)
	must(t, roundTrip(conn, []byte("before")))
	addrBefore := h.app.udpAddr().String()

	if code, _ := h.do("PUT", "/users/bob"); code != 204 {
		t.Fatalf("PUT bob = %d", code)
	}
	if got := h.app.udpAddr().String(); got != addrBefore {
		t.Fatalf("restart moved the server: %s -> %s", addrBefore, got)
	}
	start := time.Now()
	if err := roundTrip(conn, []byte("after")); err == nil {
		t.Fatal("stream survived a restart")
	} else {
		t.Logf("old stream died after %v: %v", time.Since(start), err)
	}
	if _, err := c.TCP(echo); err == nil {
		t.Fatal("old connection can still open streams")
	}
	s := h.waitStats("old connection gone", func(s statsSnapshot) bool {
		return s.ConnectionsOpen == 0 && s.TCPStreamsOpen == 0
	})
	if s.Restarts != 1 || s.Users != 2 {
		t.Fatalf("after restart: %+v", s)
	}

	// The new generation serves both users.
	for _, u := range []string{"alice", "bob"} {
		nc := h.mustDial(u)
		conn, err := nc.TCP(echo)
		must(t, err)
		must(t, roundTrip(conn, []byte("new "+u)))
	}
	if code, _ := h.do("DELETE", "/users/bob"); code != 204 {
		t.Fatalf("DELETE bob = %d", code)
	}
	if _, err := h.dial("bob", ""); err == nil {
		t.Fatal("deleted user still authenticates")
	}
	s = h.waitStats("second restart", func(s statsSnapshot) bool { return s.ConnectionsOpen == 0 })
	if s.Restarts != 2 {
		t.Fatalf("after delete: %+v", s)
	}
	if code, _ := h.do("GET", "/ready"); code != 200 {
		t.Fatalf("GET /ready after restart = %d", code)
	}
}

func TestUserChangeWithoutRestartKeepsConnections(t *testing.T) {
	h := startServer(t, false, "", "alice")
	echo := tcpEcho(t)
	c := h.mustDial("alice")
	conn, err := c.TCP(echo)
	must(t, err)
	must(t, roundTrip(conn, []byte("before")))

	if code, _ := h.do("PUT", "/users/bob"); code != 204 {
		t.Fatalf("PUT bob = %d", code)
	}
	// Even deleting the connected user leaves its connection alone.
	if code, _ := h.do("DELETE", "/users/alice"); code != 204 {
		t.Fatalf("DELETE alice = %d", code)
	}
	must(t, roundTrip(conn, randBytes(64<<10)))
	conn2, err := c.TCP(echo)
	must(t, err)
	must(t, roundTrip(conn2, []byte("new stream, old connection")))

	if _, err := h.dial("alice", ""); err == nil {
		t.Fatal("deleted user authenticated")
	}
	h.mustDial("bob")
	s := h.stats()
	if s.Restarts != 0 || s.ConnectionsOpen != 2 || s.Users != 1 {
		t.Fatalf("stats: %+v", s)
	}
}

func TestSalamander(t *testing.T) {
	t.Parallel()
	h := startServer(t, false, "hunter2", "alice")
	echo := tcpEcho(t)

	c := h.mustDial("alice")
	conn, err := c.TCP(echo)
	must(t, err)
	must(t, roundTrip(conn, randBytes(128<<10)))

	// Without (or with the wrong) obfuscation the handshake never completes;
	// the client gives up after quic-go's handshake idle timeout (5 s).
	errc := make(chan error, 2)
	for _, pw := range []string{"", "hunter3"} {
		go func() {
			c, err := h.dial("alice", pw)
			if err == nil {
				c.Close()
				err = fmt.Errorf("obfs %q: connected", pw)
			} else {
				err = nil
			}
			errc <- err
		}()
	}
	must(t, <-errc)
	must(t, <-errc)
}

// The library's Salamander matches the spec's test vector:
// key = BLAKE2b-256(PSK || salt), payload XOR key, [salt][payload] on the wire,
// packets of <= 8 bytes dropped.
func TestSalamanderVector(t *testing.T) {
	salt := []byte{0, 1, 2, 3, 4, 5, 6, 7}
	key := blake2b.Sum256(append([]byte("hunter2"), salt...))
	if fmt.Sprintf("%x", key) != "1c04e8d479b60ed237df9c3d853aa211b323c48a133f8b6a51b358dabb747231" {
		t.Fatalf("blake2b vector: %x", key)
	}
	raw, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	must(t, err)
	wrapped, err := obfs.WrapPacketConnSalamander(raw, []byte("hunter2"))
	must(t, err)
	defer wrapped.Close()
	snd, err := net.DialUDP("udp", nil, raw.LocalAddr().(*net.UDPAddr))
	must(t, err)
	defer snd.Close()
	// A short packet (dropped), then [salt][40 zero bytes] -> reads back as
	// the key repeated over 40 bytes.
	_, _ = snd.Write([]byte{1, 2, 3, 4, 5, 6, 7, 8})
	_, _ = snd.Write(append(append([]byte{}, salt...), make([]byte, 40)...))
	_ = wrapped.SetReadDeadline(time.Now().Add(2 * time.Second))
	buf := make([]byte, 2048)
	n, _, err := wrapped.ReadFrom(buf)
	must(t, err)
	want := append(key[:], key[:8]...)
	if !bytes.Equal(buf[:n], want) {
		t.Fatalf("deobfuscated %x, want %x", buf[:n], want)
	}
	if _, err := obfs.WrapPacketConnSalamander(raw, []byte("abc")); err == nil {
		t.Fatal("3-byte PSK accepted")
	}
}

// The real binary path: flags, ready line on stdout, --users file, SIGTERM.
func TestSubprocess(t *testing.T) {
	cf := genCert(t)
	usersFile := filepath.Join(t.TempDir(), "users")
	must(t, os.WriteFile(usersFile, []byte("alice\n  bob  \n\n"), 0o600))
	cmd := exec.Command(os.Args[0], "--listen", "127.0.0.1:0", "--control", "127.0.0.1:0",
		"--cert", cf.cert, "--key", cf.key, "--users", usersFile, "--restart-on-change")
	cmd.Env = append(os.Environ(), asMainEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("no ready line: %v; stderr:\n%s", err, stderr.String())
	}
	var udp, ctl string
	if _, err := fmt.Sscanf(line, "ready udp=%s control=%s", &udp, &ctl); err != nil {
		t.Fatalf("bad ready line %q: %v", line, err)
	}
	h := &harness{t: t, cf: cf, ctl: "http://" + ctl}
	if code, _ := h.do("GET", "/ready"); code != 200 {
		t.Fatalf("/ready = %d", code)
	}
	if code, body := h.do("GET", "/users"); strings.TrimSpace(body) != `["alice","bob"]` {
		t.Fatalf("/users = %d %s", code, body)
	}
	ua, err := net.ResolveUDPAddr("udp", udp)
	must(t, err)
	c, _, err := client.NewClient(&client.Config{ServerAddr: ua, Auth: "bob",
		TLSConfig: client.TLSConfig{ServerName: "localhost", RootCAs: cf.pool}})
	must(t, err)
	c.Close()
	must(t, cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no exit after SIGTERM")
	}
	for _, want := range []string{"connect addr=", "signal: shutting down"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}

func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--listen", "127.0.0.1:1", "--cert", "c", "--key", "k"},
		{"--listen", "127.0.0.1:1", "--cert", "c", "--key", "k", "--control", "127.0.0.1:2", "--obfs-password", "abc"},
		{"--listen", "127.0.0.1:1", "--cert", "c", "--key", "k", "--control", "127.0.0.1:2", "extra"},
	} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("parseFlags(%q) accepted", args)
		}
	}
	if _, err := loopbackTarget("127.8.9.10:5"); err != nil {
		t.Error(err)
	}
	if _, err := loopbackTarget("[::ffff:10.0.0.1]:5"); err == nil {
		t.Error("v4-mapped non-loopback accepted")
	}
}
