package main

import (
	"os"
	"strings"
	"testing"
)

// legacyRC is the rolling-update package's test scenario: a
// ReplicationController "web" of 4 pods on nginx:1.25.
const legacyRC = "../../engine/rollingupdate/testdata/legacy-rc.yaml"

// legacyRCLines is what kubectl rolling-update prints rolling it to
// nginx:1.27, as the package's own test of the driver holds it to.
const legacyRCLines = "../../engine/rollingupdate/testdata/legacy-rc-kubectl.txt"

func TestRollingUpdateRehearsalPrintsKubectlsLines(t *testing.T) {
	r := rollscope(t, "rolling-update", "web", "--image=nginx:1.27", "--scenario", legacyRC, "--update-period", "5s")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want, err := os.ReadFile(legacyRCLines)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.stdout, string(want)) {
		t.Errorf("stdout\n got:\n%s\nwant it to start with:\n%s", r.stdout, want)
	}
	if !strings.Contains(r.stdout, "(rehearsed on the embedded cluster, scenario legacy-rc:") {
		t.Errorf("no rehearsal note in:\n%s", r.stdout)
	}
}

func TestRollingUpdateNamedNextIsNotRenamed(t *testing.T) {
	r := rollscope(t, "rolling-update", "web", "web-v2", "--image=nginx:1.27", "--scenario", legacyRC, "--update-period", "5s")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "Created web-v2\n") || !strings.Contains(r.stdout, "Update succeeded. Deleting web\nreplicationcontroller/web rolling updated to \"web-v2\"\n") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}

func TestRollingUpdateDryRunChangesNothing(t *testing.T) {
	r := rollscope(t, "rolling-update", "web", "--image=nginx:1.27", "--scenario", legacyRC, "--dry-run")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	wantAll(t, r.stdout, "dry run", "Rolling from:\n  replicationcontroller/web  image nginx:1.25  replicas 4  selector app=web\n",
		"To:\n  replicationcontroller/web-cdf1f4976f9636356016e5944114b87c  image nginx:1.27  replicas 4  selector app=web,deployment=cdf1f4976f9636356016e5944114b87c\n",
		"Then web-cdf1f4976f9636356016e5944114b87c is renamed to web. (dry run)\n",
	)
	if strings.Contains(r.stdout, "Scaling") {
		t.Errorf("a dry run scaled:\n%s", r.stdout)
	}
}

// TestRollingUpdateBadInput: each mistake is one line on stderr, exit 2,
// nothing on stdout.
func TestRollingUpdateBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"same image without a pull policy", []string{"web", "--image=nginx:1.25"}, "--image-pull-policy (Always|Never|IfNotPresent) must be given"},
		{"rollback and image together", []string{"web", "--rollback", "--image=nginx:1.27"}, "--rollback and --image do not go together"},
		{"bad pull policy", []string{"web", "--image=nginx:1.27", "--image-pull-policy", "Sometimes"}, `--image-pull-policy "Sometimes": use Always, Never or IfNotPresent`},
		{"next named as the old", []string{"web", "web", "--image=nginx:1.27"}, `NEXT "web" must differ from RC`},
		{"no controller named", nil, "rolling-update takes RC and optionally NEXT (got 0 arguments)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rollscope(t, append(append([]string{"rolling-update"}, tc.args...), "--scenario", legacyRC)...)
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Errorf("exit %d, stderr %q; want exit 2 and one line containing %q", r.code, r.stderr, tc.want)
			}
			if strings.Contains(r.stdout, "Scaling") {
				t.Errorf("bad input scaled something:\n%s", r.stdout)
			}
		})
	}
}

func TestRollingUpdateUnreachableClusterIsOneLine(t *testing.T) {
	r := rollscope(t, "rolling-update", "web", "--image=nginx:1.27", "--server", "https://127.0.0.1:1", "--request-timeout", "2s")
	if r.code != 1 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || r.stderr == "" {
		t.Errorf("exit %d, stderr %q; want exit 1 and one line", r.code, r.stderr)
	}
}
