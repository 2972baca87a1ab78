// Writes minimal geoip.dat and geosite.dat into DIR with xray-core's own
// protobuf types: Xray's default 3x-ui template routes "geoip:private" to
// the blackhole, so Xray refuses to start without the files, and the real
// ones come from a download site this machine cannot reach. Only the
// "private" codes are written (the RFC 1918/6598/loopback/link-local/ULA
// ranges and "localhost"), which is all the template asks for.
//
// Built inside a copy of the xray-core module (build_3x_ui.sh), so it uses
// exactly the types of the Xray it feeds.
package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"

	"github.com/xtls/xray-core/common/geodata"
	"google.golang.org/protobuf/proto"
)

var private = []string{
	"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
	"192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15",
	"198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/3", "::/127", "fc00::/7", "fe80::/10", "ff00::/8",
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: xray-geo DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	ip := &geodata.GeoIP{Code: "PRIVATE"}
	for _, c := range private {
		_, n, err := net.ParseCIDR(c)
		if err != nil {
			panic(err)
		}
		ones, _ := n.Mask.Size()
		addr := n.IP.To4()
		if addr == nil {
			addr = n.IP.To16()
		}
		ip.Cidr = append(ip.Cidr, &geodata.CIDR{Ip: addr, Prefix: uint32(ones)})
	}
	site := &geodata.GeoSite{Code: "PRIVATE", Domain: []*geodata.Domain{{Type: geodata.Domain_Full, Value: "localhost"}}}
	write(filepath.Join(dir, "geoip.dat"), &geodata.GeoIPList{Entry: []*geodata.GeoIP{ip}})
	write(filepath.Join(dir, "geosite.dat"), &geodata.GeoSiteList{Entry: []*geodata.GeoSite{site}})
}

func write(path string, m proto.Message) {
	b, err := proto.Marshal(m)
	if err != nil {
		panic(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "xray-geo:", err)
		os.Exit(1)
	}
}
