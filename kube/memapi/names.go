package memapi

import (
	"encoding/binary"

	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
)

// nameAlphabet is upstream's alphabet for generated name suffixes: no
// vowels (no accidental words) and no look-alike characters.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// maxGeneratedNameBase is how much of generateName upstream keeps, leaving
// room for the suffix within the 63 characters of a label value.
const maxGeneratedNameBase = 58

// generateName appends a seeded random 5-character suffix to base.
func (c *Cluster) generateName(base string) string {
	if len(base) > maxGeneratedNameBase {
		base = base[:maxGeneratedNameBase]
	}
	suffix := make([]byte, 5)
	for i := range suffix {
		suffix[i] = nameAlphabet[c.names.Intn(len(nameAlphabet))]
	}
	return base + string(suffix)
}

// newUID returns a version-4-shaped UUID derived from the seed and a
// counter, so that the same run always hands out the same UIDs.
func (c *Cluster) newUID() types.UID {
	c.uidCounter++
	hi := mix64(uint64(c.seed) ^ c.uidCounter*0x9e3779b97f4a7c15)
	lo := mix64(hi ^ c.uidCounter)
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], hi)
	binary.BigEndian.PutUint64(b[8:], lo)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return model.FormatUID(b)
}

// mix64 is the splitmix64 finaliser: a cheap bijection that spreads
// consecutive counters over the whole 64-bit space.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
