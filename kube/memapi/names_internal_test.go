package memapi

import (
	"encoding/binary"
	"fmt"
	"testing"
)

// The UIDs written by hand are those fmt wrote before, so that a scenario's
// objects keep their UIDs from one release to the next.
func TestUIDsAreTheUsualHexForm(t *testing.T) {
	c := &Cluster{seed: 42}
	for i := 0; i < 1000; i++ {
		got := string(c.newUID())
		hi := mix64(uint64(c.seed) ^ c.uidCounter*0x9e3779b97f4a7c15)
		lo := mix64(hi ^ c.uidCounter)
		var b [16]byte
		binary.BigEndian.PutUint64(b[:8], hi)
		binary.BigEndian.PutUint64(b[8:], lo)
		b[6] = b[6]&0x0f | 0x40
		b[8] = b[8]&0x3f | 0x80
		if want := fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:]); got != want {
			t.Fatalf("uid %d: %q, want %q", i, got, want)
		}
	}
}
