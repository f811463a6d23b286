package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"rollscope/test/e2e/controlplane"
)

// result is one console's figures for one run.
type result struct {
	console     string
	replicas    int
	rollout     time.Duration // set image → complete, as the API says
	events      int64         // pod watch events in the namespace during the rollout
	cpu         float64       // seconds of utime+stime during the rollout
	peakRSS     float64       // MiB
	firstScreen time.Duration // start → first complete screen
	staleness   time.Duration // API complete → the screen says so
	settled     settled       // the rollout's settled moments: how many were checked, where the rows were not the API's
	keys        string        // keys pressed during the rollout, their Update+frame times (keyFigures)
	apiList     time.Duration // the API's own list of the namespace's pods, before the consoles start
}

func measure(ctx context.Context, cp *controlplane.ControlPlane, admin kubernetes.Interface, n int, consoles []console, work string) ([]result, error) {
	namespace := fmt.Sprintf("sidebyside-%d-%d", n, time.Now().Unix())
	say("%d replicas: creating deployment %s/%s", n, namespace, appName)
	if err := create(ctx, admin, namespace, n); err != nil {
		return nil, err
	}
	defer func() {
		_ = admin.CoreV1().Namespaces().Delete(context.Background(), namespace, metav1.DeleteOptions{})
	}()
	// The scheduler places about 35 pods a second here, whatever -qps.
	available := max(15*time.Minute, time.Duration(n)*60*time.Millisecond)
	if err := until(ctx, available, "the deployment to be available", func() (bool, error) { return complete(ctx, admin, namespace) }); err != nil {
		return nil, err
	}
	rows, err := apiRows(ctx, admin, namespace)
	if err != nil {
		return nil, err
	}

	apiList, listed, err := listTime(ctx, admin, namespace)
	if err != nil {
		return nil, err
	}
	say("%d replicas available; the API lists their %d pods in %s; starting %d consoles", n, listed, apiList.Round(10*time.Millisecond), len(consoles))
	sessions := make([]*session, len(consoles))
	results := make([]result, len(consoles))
	begun := time.Now()
	for i, c := range consoles {
		home := filepath.Join(work, fmt.Sprintf("home-%d-%d", n, i))
		if err := os.MkdirAll(home, 0o755); err != nil {
			return nil, err
		}
		s, err := start(c, cp.AdminKubeconfig, namespace, home, i)
		if err != nil {
			return nil, err
		}
		defer s.stop()
		sessions[i] = s
		results[i] = result{console: c.name, replicas: n, apiList: apiList}
	}
	if err := waitScreens(ctx, sessions, n, func() (map[string][4]int, error) { return rows, nil }, func(i int) {
		results[i].firstScreen = time.Since(begun)
	}); err != nil {
		return nil, fmt.Errorf("first screens: %w", err)
	}
	time.Sleep(3 * time.Second) // let start-up work end before counting
	before := make([]float64, len(sessions))
	for i, s := range sessions {
		if before[i], err = cpuSeconds(s.pid); err != nil {
			return nil, fmt.Errorf("%s: %w (did it exit? its screen:\n%s)", s.name, err, s.screen())
		}
	}

	events, stopCounting, err := countPodEvents(ctx, admin, namespace, func(metav1.Object) bool { return true })
	if err != nil {
		return nil, err
	}
	defer stopCounting()

	delivered, stopSeeing, err := watchDeliveries(ctx, admin, namespace)
	if err != nil {
		return nil, err
	}
	defer stopSeeing()
	checking, stopChecks := context.WithCancel(ctx)
	defer stopChecks()
	var moments []settled
	checksDone := make(chan struct{})
	go func() {
		defer close(checksDone)
		moments = settledChecks(checking, admin, namespace, sessions, delivered)
	}()
	go pressKeys(checking, sessions)
	say("%d replicas: set image", n)
	set := time.Now()
	if err := setImage(ctx, admin, namespace, "example.com/app:v2"); err != nil {
		return nil, err
	}
	// The rollout has not begun until the controller has seen the change.
	if err := until(ctx, max(30*time.Minute, time.Duration(n)*120*time.Millisecond), "the rollout to complete", func() (bool, error) {
		if time.Since(set) < time.Second {
			return false, nil
		}
		return complete(ctx, admin, namespace)
	}); err != nil {
		return nil, err
	}
	done := time.Now()
	rollout := done.Sub(set)
	stopChecks()
	<-checksDone
	for i, s := range sessions {
		results[i].settled = moments[i]
		results[i].keys = keyFigures(s)
	}
	counted := events.Load()
	say("%d replicas: rolled out in %s, %d pod events", n, rollout.Round(100*time.Millisecond), counted)
	if err := waitScreens(ctx, sessions, n, func() (map[string][4]int, error) { return apiRows(ctx, admin, namespace) }, func(i int) {
		results[i].staleness = time.Since(done)
	}); err != nil {
		return nil, fmt.Errorf("screens after the rollout: %w", err)
	}
	if err := spent(results, sessions, before, rollout, counted); err != nil {
		return nil, err
	}
	// Settled: every rollscope's rows must be the API's.
	final, err := apiRows(ctx, admin, namespace)
	if err != nil {
		return nil, err
	}
	for _, s := range sessions {
		if s.kind != rollscopeKind {
			continue
		}
		// The pane keeps the selected ReplicaSet in view, and thousands of
		// pods' dots leave room for little else: read the rows with the
		// cursor on each ReplicaSet in turn.
		// The cursor may be on the newest ReplicaSet (first) or the
		// oldest: down, then up, and so on, until every row was seen.
		seen, moves := map[string][4]int{}, 0
		err := until(ctx, 20*time.Second, s.name+"'s ReplicaSet rows", func() (bool, error) {
			for hash, counts := range screenRows(s.screen()) {
				seen[hash] = counts
			}
			if rowsEqual(seen, final) {
				return true, nil
			}
			moves++
			if _, err := s.tmux("send-keys", "-t", "console", []string{"j", "k"}[moves%2]); err != nil {
				return false, err
			}
			// At 10,000 pods a frame takes longer than the poll: read the
			// screen the key made, not the one before it.
			time.Sleep(300 * time.Millisecond)
			return false, nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s's ReplicaSet rows %v differ from the API's %v once settled:\n%s", s.name, seen, final, s.screen())
		}
	}
	return results, nil
}

// waitScreens polls every session's screen until each shows the rollout
// complete with the rows read (none for a fleet), calling shown once for
// each. k9s's screen may never show it — at 30,000 pods under a tight
// --request-timeout its first list is cut off and retried for ever (k9s PR
// #4109) —: a k9s that has not shown it after screenPatience is marked blind
// and measured on, its screen no longer awaited. A rollscope that has not is
// the run's failure.
func waitScreens(ctx context.Context, sessions []*session, n int, read func() (map[string][4]int, error), shown func(i int)) error {
	left := map[int]bool{}
	for i, s := range sessions {
		if !s.blind {
			left[i] = true
		}
	}
	err := until(ctx, screenPatience, "every console to show the deployment complete", func() (bool, error) {
		var rows map[string][4]int
		if read != nil {
			var err error
			if rows, err = read(); err != nil {
				return false, err
			}
		}
		for i := range left {
			if sessions[i].shows(sessions[i].screen(), n, rows) {
				shown(i)
				delete(left, i)
			}
		}
		if len(left) > 0 {
			for i := range left {
				return false, fmt.Errorf("%s shows:\n%s", sessions[i].name, sessions[i].screen())
			}
		}
		return true, nil
	})
	if err == nil || ctx.Err() != nil {
		return err
	}
	for i := range left {
		if sessions[i].kind == rollscopeKind || sessions[i].kind == rollscopeFleet {
			return err
		}
	}
	for i := range left {
		say("%s never showed the deployment complete in %s; measured on without its screen:\n%s", sessions[i].name, screenPatience, sessions[i].screen())
		sessions[i].blind = true
	}
	return nil
}

// screenPatience is how long waitScreens waits for a screen.
const screenPatience = 5 * time.Minute

// spent fills in each console's figures for the rollout, read two seconds
// after every screen showed it complete: the CPU spent since before, the
// peak RSS, and the rollout's length and pod events. The fleet and the
// single-deployment runs report the same columns this way.
func spent(results []result, sessions []*session, before []float64, rollout time.Duration, events int64) error {
	time.Sleep(2 * time.Second)
	for i, s := range sessions {
		after, err := cpuSeconds(s.pid)
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		peak, err := peakRSS(s.pid)
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		results[i].cpu, results[i].peakRSS = after-before[i], peak
		results[i].rollout, results[i].events = rollout, events
	}
	return nil
}

func printTable(out io.Writer, results []result) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "N pods\tconsole\trollout\tpod events\tCPU s\tCPU per event\tpeak RSS MiB\tfirst screen\tstale after API\trows = API (settled moments)\tkeys while churning: median / p99 / max")
	for _, r := range results {
		per := "—"
		if r.events > 0 {
			per = fmt.Sprintf("%.0f µs", r.cpu/float64(r.events)*1e6)
		}
		settled := "—"
		if r.settled.checked > 0 {
			settled = fmt.Sprintf("%d of %d", r.settled.checked-len(r.settled.behind), r.settled.checked)
		}
		keys := r.keys
		if keys == "" {
			keys = "—"
		}
		first, stale := fmt.Sprintf("%.2f s", r.firstScreen.Seconds()), fmt.Sprintf("%.2f s", r.staleness.Seconds())
		if r.firstScreen == 0 {
			first = "never"
		} else if r.apiList > 0 {
			first += fmt.Sprintf(" (API list %.2f s)", r.apiList.Seconds())
		}
		if r.staleness == 0 {
			// Never shown after the rollout, even if shown at first.
			stale = "never"
		}
		fmt.Fprintf(tw, "%d\t%s\t%.0f s\t%d\t%.2f\t%s\t%.0f\t%s\t%s\t%s\t%s\n", r.replicas, r.console, r.rollout.Seconds(), r.events,
			r.cpu, per, r.peakRSS, first, stale, settled, keys)
	}
	_ = tw.Flush()
}
