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
		{"plain image", CheckImage("nginx:1.27"), ""},
		{"registry, port and digest", CheckImage("registry.example.com:5000/team/app:v2@sha256:" + strings.Repeat("a", 64)), ""},
		{"empty image", CheckImage(""), "the image is empty"},
		{"blank image", CheckImage("  "), "the image is empty"},
		{"upper case", CheckImage("Nginx:1"), "not a valid reference"},
		{"bad tag", CheckImage("nginx:1.2:3"), "not a valid reference"},
		{"spaces around", CheckImage(" nginx:1"), "spaces around it"},
		{"bad digest", CheckImage("nginx@sha256:abc"), "not a valid reference"},
		{"env name", CheckEnvName("LOG_LEVEL"), ""},
		{"relaxed env name", CheckEnvName("1.x-y"), ""},
		{"empty env name", CheckEnvName(""), "the variable name is empty"},
		{"env name with =", CheckEnvName("A=B"), "not a valid environment variable name"},
		{"env name with a tab", CheckEnvName("A\tB"), "not a valid environment variable name"},
		{"env name not ASCII", CheckEnvName("GRÖSSE"), "not a valid environment variable name"},
		{"zero replicas", CheckReplicas(0), ""},
		{"negative replicas", CheckReplicas(-1), "0 or more"},
		{"huge replicas", CheckReplicas(1 << 40), "more than rollscope will set"},
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
