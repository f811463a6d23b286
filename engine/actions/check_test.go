package actions

import (
	"strings"
	"testing"
)

func TestChecksRefuseBadInput(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want string // "" when accepted
	}{
		{"zero replicas", CheckReplicas(0), ""},
		{"negative replicas", CheckReplicas(-1), "0 or more"},
		{"huge replicas", CheckReplicas(1 << 40), "more than the API accepts"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			switch {
			case tc.want == "" && tc.err != nil:
				t.Fatalf("refused: %v", tc.err)
			case tc.want != "" && (tc.err == nil || !strings.Contains(tc.err.Error(), tc.want)):
				t.Fatalf("error %v, want one saying %q", tc.err, tc.want)
			}
		})
	}
}
