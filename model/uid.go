package model

import (
	"encoding/hex"

	"k8s.io/apimachinery/pkg/types"
)

// ParseUID reads a UID in the 8-4-4-4-12 lowercase hex form the API server
// writes, the only form FormatUID gives back.
func ParseUID(u types.UID) ([16]byte, bool) {
	var b [16]byte
	if len(u) != 36 {
		return b, false
	}
	j := 0
	for i := 0; i < 36; {
		switch i {
		case 8, 13, 18, 23:
			if u[i] != '-' {
				return b, false
			}
			i++
			continue
		}
		// Every group has an even number of digits: a pair never spans a dash.
		hi, ok1 := nibble(u[i])
		lo, ok2 := nibble(u[i+1])
		if !ok1 || !ok2 {
			return b, false
		}
		b[j] = hi<<4 | lo
		j++
		i += 2
	}
	return b, true
}

// nibble is a lowercase hex digit's value.
func nibble(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// FormatUID writes a UID in the 8-4-4-4-12 lowercase hex form, as the API
// server does, by hand: fmt's boxing of five slices was most of a pod
// creation's allocations in the embedded API.
func FormatUID(b [16]byte) types.UID {
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:36], b[10:])
	return types.UID(out[:])
}
