package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

type consoleKind int

const (
	rollscopeKind consoleKind = iota
	k9sPods
	k9sDeploy
	// rollscopeFleet is `rollscope -A`, the fleet of every namespace;
	// k9sFleet is k9s's deployments of every namespace, `-A -c deploy`.
	rollscopeFleet
	k9sFleet
)

// console is one program measured.
type console struct {
	name string
	kind consoleKind
	bin  string
	// args are more flags (--record-to FILE, --context NAMES).
	args []string
	// clusters are the fleet run's clusters the console watches, by
	// their index; nil for all of them.
	clusters []int
}

// session is a console running in a tmux server of its own.
type session struct {
	console
	socket string
	pid    int
	// workloads is how many a fleet console lists once complete.
	workloads int
	// keyTimes is the file a rollscope console writes each key's Update
	// and frame time into (ROLLSCOPE_KEYTIMES), in microseconds.
	keyTimes string
	// batchTimes is the file it writes each ReplicaSet its batches bring
	// into, with when (ROLLSCOPE_BATCHTIMES), which received reads.
	batchTimes string
	// blind is set once a k9s never showed the deployment complete
	// (waitScreens): its CPU and memory are still measured.
	blind bool
}

// start runs the console in a detached 200×50 tmux session; exec makes the
// pane's process the console itself, so that its pid is the one measured.
func start(c console, kubeconfig, namespace, home string, i int) (*session, error) {
	var argv []string
	switch c.kind {
	case rollscopeKind:
		argv = []string{c.bin, "--kubeconfig", kubeconfig, "-n", namespace, "deployment/" + appName}
	case k9sPods:
		argv = []string{c.bin, "--kubeconfig", kubeconfig, "-n", namespace, "-c", "pods"}
	case k9sDeploy:
		argv = []string{c.bin, "--kubeconfig", kubeconfig, "-n", namespace, "-c", "deploy"}
	case rollscopeFleet:
		// One namespace: the fleet is the start screen of a namespace
		// with more than one workload.
		argv = []string{c.bin, "--kubeconfig", kubeconfig, "-A"}
		if namespace != "" {
			argv = []string{c.bin, "--kubeconfig", kubeconfig, "-n", namespace}
		}
	case k9sFleet:
		argv = []string{c.bin, "--kubeconfig", kubeconfig, "-A", "-c", "deploy"}
		if namespace != "" {
			argv = []string{c.bin, "--kubeconfig", kubeconfig, "-n", namespace, "-c", "deploy"}
		}
	}
	argv = append(argv, c.args...)
	if requestTimeout != "" {
		argv = append(argv[:1], append([]string{"--request-timeout", requestTimeout}, argv[1:]...)...)
	}
	// k9s writes its config, logs and screen dumps under these; keep them
	// out of the user's home.
	env := []string{"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_DATA_HOME=" + filepath.Join(home, "data"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "XDG_CACHE_HOME=" + filepath.Join(home, "cache"), "TERM=xterm-256color"}
	if (c.kind == rollscopeKind || c.kind == rollscopeFleet) && profileDir != "" {
		name := namespace
		if name == "" {
			name = "fleet"
		}
		env = append(env, "ROLLSCOPE_CPUPROFILE="+filepath.Join(profileDir, fmt.Sprintf("%s-%d.prof", name, i)))
	}
	keyTimes, batchTimes := "", ""
	if c.kind == rollscopeKind || c.kind == rollscopeFleet {
		keyTimes = filepath.Join(home, "keys.txt")
		env = append(env, "ROLLSCOPE_KEYTIMES="+keyTimes)
	}
	if c.kind == rollscopeKind {
		// Only a console whose rows are checked at settled moments: a
		// fleet's log would cost it CPU beside k9s for nothing.
		batchTimes = filepath.Join(home, "batches.txt")
		env = append(env, "ROLLSCOPE_BATCHTIMES="+batchTimes)
	}
	line := "exec env " + strings.Join(env, " ")
	for _, a := range argv {
		line += " '" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	s := &session{console: c, socket: fmt.Sprintf("rollscope-sidebyside-%d-%d", os.Getpid(), i), keyTimes: keyTimes, batchTimes: batchTimes}
	if _, err := s.tmux("new-session", "-d", "-s", "console", "-x", "200", "-y", "50", line); err != nil {
		return nil, err
	}
	out, err := s.tmux("display-message", "-p", "-t", "console", "#{pane_pid}")
	if err != nil {
		return nil, err
	}
	if s.pid, err = strconv.Atoi(strings.TrimSpace(out)); err != nil {
		return nil, fmt.Errorf("pane pid %q: %v", out, err)
	}
	return s, nil
}

func (s *session) tmux(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("tmux %v: %v: %s", args, err, out)
	}
	return string(out), nil
}

func (s *session) screen() string {
	out, _ := s.tmux("capture-pane", "-p", "-t", "console")
	return out
}

// stop quits the console as its user would — q, so that rollscope writes its
// profile — then ends the tmux server.
func (s *session) stop() {
	_, _ = s.tmux("send-keys", "-t", "console", "q")
	time.Sleep(time.Second)
	_ = exec.Command("tmux", "-L", s.socket, "kill-server").Run()
}

// rollscope's ReplicaSet row: role, pod-template-hash, DESIRED CUR READY AVAIL.
var rsRowPattern = regexp.MustCompile(`\s(\w+)\s+([0-9a-z]{6,12})\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s`)

// screenRows reads every ReplicaSet row on a rollscope screen.
func screenRows(screen string) map[string][4]int {
	rows := map[string][4]int{}
	for _, m := range rsRowPattern.FindAllStringSubmatch(screen, -1) {
		var counts [4]int
		for i := range counts {
			counts[i], _ = strconv.Atoi(m[i+3])
		}
		rows[m[2]] = counts
	}
	return rows
}

// k9s's view title, "pods(NAMESPACE)[1,000]": the count has thousands separators.
var k9sTitle = regexp.MustCompile(`(pods|deployments)\([^)]*\)\[([\d,]+)\]`)

// shows reports whether a console's screen shows the deployment complete at
// n replicas with the API's ReplicaSets rows (rollscope's rows are checked
// against rows; k9s shows none).
func (s *session) shows(screen string, n int, rows map[string][4]int) bool {
	switch s.kind {
	case rollscopeFleet, k9sFleet:
		return s.showsFleet(screen, n)
	case rollscopeKind:
		// A Deployment of thousands of pods fills the ReplicaSets pane with
		// its pods' dots; the header's status line says what kubectl rollout
		// status says, and the rows are read on a taller window once settled.
		return strings.Contains(screen, fmt.Sprintf("rev %d", revision(rows))) &&
			strings.Contains(screen, `deployment "`+appName+`" successfully rolled out`)
	}
	return s.showsK9s(screen, n, rows)
}

// revision is the number of ReplicaSets the deployment has made: 1 before
// the rollout, 2 after.
func revision(rows map[string][4]int) int { return len(rows) }

// rowsEqual reports whether the rows read off a rollscope screen are the API's.
func rowsEqual(got, want map[string][4]int) bool {
	if len(got) != len(want) {
		return false
	}
	for hash, counts := range want {
		if g, ok := got[hash]; !ok || g != counts {
			return false
		}
	}
	return true
}

func (s *session) showsK9s(screen string, n int, rows map[string][4]int) bool {
	switch s.kind {
	case k9sPods:
		// Pod names carry their ReplicaSet's hash: complete is N pods, all
		// of the ReplicaSet that wants them, all Running.
		m := k9sTitle.FindStringSubmatch(screen)
		if m == nil || strings.ReplaceAll(m[2], ",", "") != strconv.Itoa(n) || strings.Contains(screen, "Terminating") ||
			strings.Contains(screen, "Pending") || strings.Contains(screen, "ContainerCreating") {
			return false
		}
		current := false
		for hash, want := range rows {
			has := strings.Contains(screen, appName+"-"+hash+"-")
			if want[0] == 0 && has {
				return false
			}
			current = current || (want[0] > 0 && has)
		}
		return current
	case k9sDeploy:
		full := fmt.Sprintf("%d/%d", n, n)
		return k9sTitle.MatchString(screen) && regexp.MustCompile(`\s`+full+`\s+`+strconv.Itoa(n)+`\s+`+strconv.Itoa(n)+`\s`).MatchString(screen)
	}
	return false
}
