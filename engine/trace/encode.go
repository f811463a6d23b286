package trace

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// appendSeconds appends d as seconds with millisecond resolution and at least
// one decimal: 61.0, 812.4, 0.25.
func appendSeconds(b []byte, d time.Duration) []byte {
	ms := d.Round(time.Millisecond).Milliseconds()
	if ms < 0 {
		b = append(b, '-')
		ms = -ms
	}
	b = strconv.AppendInt(b, ms/1000, 10)
	b = append(b, '.')
	frac := ms % 1000
	if frac == 0 {
		return append(b, '0')
	}
	digits := [3]byte{byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10)}
	n := 3
	for digits[n-1] == '0' {
		n--
	}
	return append(b, digits[:n]...)
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string, escaping as encoding/json does
// apart from HTML characters, which a terminal trace has no reason to hide.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendJSONBody(b, s)
	return append(b, '"')
}

// appendJSONBody appends s escaped for use inside a JSON string.
func appendJSONBody(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		// U+2028 and U+2029 end lines in JavaScript; escape them as encoding/json does.
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(b, s[start:]...)
}
