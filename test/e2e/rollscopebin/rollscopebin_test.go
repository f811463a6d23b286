package rollscopebin

import (
	"os/exec"
	"strings"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

// The binary built is the product's: its help names the console's commands.
func TestPathBuildsTheProduct(t *testing.T) {
	first := Path(t)
	if again := Path(t); again != first {
		t.Fatalf("second call built again: %s then %s", first, again)
	}
	out, err := exec.Command(first, "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("rollscope --help: %v\n%s", err, out)
	}
	for _, want := range []string{"simulate", "rolling-update", "scenarios"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("rollscope --help does not mention %q:\n%s", want, out)
		}
	}
}
