package action

import (
	"strings"
	"testing"
)

// A count typed in a scale dialog is the count sent, or refused in words:
// never wrapped round to another number the plan would show as asked.
func TestParseReplicas(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int32
		err  string
	}{
		{" 5 ", 5, ""},
		{"0", 0, ""},
		{"2147483647", 2147483647, ""},
		{"2147483648", 0, "2147483648 replicas is more than the API accepts (spec.replicas is at most 2147483647)"},
		{"5000000000", 0, "more than the API accepts"},
		{"99999999999999999999", 0, "more than the API accepts"},
		{"-3", 0, "replicas must be 0 or more, not -3"},
		{"-99999999999999999999", 0, "replicas must be 0 or more"},
		{"ten", 0, "replicas must be a whole number, such as 5"},
		{"", 0, "replicas must be a whole number"},
		{"1.5", 0, "replicas must be a whole number"},
	} {
		got, err := ParseReplicas(c.in)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("ParseReplicas(%q) = %d, %v; want %d", c.in, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseReplicas(%q) = %d, %v; want an error saying %q", c.in, got, err, c.err)
		}
	}
}

// The scale actions' own check, for counts that come from a scenario or the
// engine rather than typed: the same refusals in the same words.
func TestCheckReplicas(t *testing.T) {
	for n, want := range map[int64]string{
		0:          "",
		2147483647: "",
		-1:         "replicas must be 0 or more, not -1",
		1 << 40:    "1099511627776 replicas is more than the API accepts (spec.replicas is at most 2147483647)",
		-(1 << 40): "replicas must be 0 or more, not -1099511627776",
		2147483648: "2147483648 replicas is more than the API accepts",
	} {
		err := CheckReplicas(n)
		if (want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("CheckReplicas(%d) = %v, want %q", n, err, want)
		}
	}
}
