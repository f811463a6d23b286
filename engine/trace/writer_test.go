package trace_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/scenario"
	"rollscope/engine/trace"
	"rollscope/model/kind"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func play(t testing.TB, f trace.Format, steps []step) string {
	t.Helper()
	var out bytes.Buffer
	w := trace.New(&out, f, start, groups)
	for _, s := range steps {
		switch {
		case s.obj != nil:
			w.Observe(at(s.t), watch.Event{Type: s.ev, Object: s.obj})
		case s.end != "":
			w.End(at(s.t), s.end)
		default:
			w.Action(at(s.t), s.action[0], s.action[1], s.action[2])
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it after review)\n got:\n%s\nwant:\n%s", name, got, want)
	}
}

func TestJSONLGolden(t *testing.T) {
	golden(t, "rollout.jsonl", play(t, trace.JSONL, rollout))
}

func TestTableGolden(t *testing.T) {
	golden(t, "rollout.table", play(t, trace.Table, rollout))
}

func TestSameInputGivesTheSameBytes(t *testing.T) {
	for _, f := range []trace.Format{trace.JSONL, trace.Table} {
		if a, b := play(t, f, rollout), play(t, f, rollout); a != b {
			t.Errorf("%s: two runs over the same events differ", f)
		}
	}
}

// TestLinesOnlyOnChange checks the rule that keeps traces readable: a line is
// due only when one of its own fields changes.
func TestLinesOnlyOnChange(t *testing.T) {
	cases := []struct {
		name  string
		steps []step
		want  []string
	}{
		{"status with equal fields writes once",
			[]step{added(1, replicaSet("rs", "1", 3, 0, 0, 0)), modified(2, replicaSet("rs", "1", 3, 0, 0, 0))},
			[]string{`{"t":1.0,"type":"replicaset","namespace":"default","name":"rs","owner":"deployment/frontend","revision":1,"spec":3,"replicas":0,"ready":0,"available":0}`}},
		{"a changed field writes again",
			[]step{added(1, replicaSet("rs", "1", 3, 0, 0, 0)), modified(2, replicaSet("rs", "1", 3, 1, 0, 0))},
			[]string{
				`{"t":1.0,"type":"replicaset","namespace":"default","name":"rs","owner":"deployment/frontend","revision":1,"spec":3,"replicas":0,"ready":0,"available":0}`,
				`{"t":2.0,"type":"replicaset","namespace":"default","name":"rs","owner":"deployment/frontend","revision":1,"spec":3,"replicas":1,"ready":0,"available":0}`,
			}},
		{"a deployment condition that is not traced changes nothing",
			[]step{
				added(1, deployment(2, 2, 2, 2, 2, 0, false, "NewReplicaSetAvailable", corev1.ConditionTrue)),
				modified(2, func() runtime.Object {
					d := deployment(2, 2, 2, 2, 2, 0, false, "NewReplicaSetAvailable", corev1.ConditionTrue)
					d.Status.ObservedGeneration = 7
					d.Status.Conditions[0].Message = "a new message"
					return d
				}()),
			},
			[]string{`{"t":1.0,"type":"deployment","namespace":"default","name":"frontend","spec":2,"replicas":2,"updated":2,"ready":2,"available":2,"unavailable":0,"paused":false,"progressing":"NewReplicaSetAvailable","availableCondition":"True","maxSurge":0,"maxUnavailable":0}`}},
		{"pod churn that keeps the count writes no node line",
			[]step{
				added(0, node("nodes-0", "v2", true, false)),
				added(1, pod("a", "nodes-0", corev1.PodRunning)),
				modified(2, pod("a", "nodes-0", corev1.PodRunning)),
				added(3, pod("b", "", corev1.PodPending)),
				modified(4, pod("b", "", corev1.PodPending)),
			},
			[]string{
				`{"t":0.0,"type":"node","name":"nodes-0","group":"nodes","ready":true,"unschedulable":false,"pods":0,"upToDate":true}`,
				`{"t":1.0,"type":"node","name":"nodes-0","group":"nodes","ready":true,"unschedulable":false,"pods":1,"upToDate":true}`,
			}},
		{"pods bound before their node appears are counted",
			[]step{
				added(1, pod("a", "nodes-9", corev1.PodRunning)),
				added(1, pod("b", "nodes-9", corev1.PodSucceeded)),
				added(2, node("nodes-9", "v1", true, false)),
			},
			[]string{`{"t":2.0,"type":"node","name":"nodes-9","group":"nodes","ready":true,"unschedulable":false,"pods":1,"upToDate":false}`}},
		{"a re-created object writes again after its deletion",
			[]step{
				added(1, replicaSet("rs", "1", 1, 0, 0, 0)),
				deleted(2, replicaSet("rs", "1", 1, 0, 0, 0)),
				added(3, replicaSet("rs", "1", 1, 0, 0, 0)),
			},
			[]string{
				`{"t":1.0,"type":"replicaset","namespace":"default","name":"rs","owner":"deployment/frontend","revision":1,"spec":1,"replicas":0,"ready":0,"available":0}`,
				`{"t":2.0,"type":"replicaset","namespace":"default","name":"rs","deleted":true}`,
				`{"t":3.0,"type":"replicaset","namespace":"default","name":"rs","owner":"deployment/frontend","revision":1,"spec":1,"replicas":0,"ready":0,"available":0}`,
			}},
		{"bookmarks and errors are ignored",
			[]step{{t: 1, ev: watch.Bookmark, obj: replicaSet("rs", "1", 1, 0, 0, 0)}, {t: 1, ev: watch.Error, obj: replicaSet("rs", "1", 1, 0, 0, 0)}},
			nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := lines(play(t, trace.JSONL, c.steps))
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("lines\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(c.want, "\n      "))
			}
		})
	}
}

func TestDeletionLines(t *testing.T) {
	rc := &corev1.ReplicationController{}
	rc.Name, rc.Namespace = "legacy", "shop"
	got := lines(play(t, trace.JSONL, []step{
		deleted(1, deployment(1, 0, 0, 0, 0, 0, false, "", "")),
		deleted(2, rc),
		deleted(3, node("nodes-0", "v2", true, false)),
		deleted(4, event("e.1", "Deployment", "frontend", "ScalingReplicaSet", "x")),
	}))
	want := []string{
		`{"t":1.0,"type":"deployment","namespace":"default","name":"frontend","deleted":true}`,
		`{"t":2.0,"type":"replicationcontroller","namespace":"shop","name":"legacy","deleted":true}`,
		`{"t":3.0,"type":"node","name":"nodes-0","deleted":true}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("deletions\n got: %q\nwant: %q", got, want)
	}
}

func TestTimeFormatting(t *testing.T) {
	cases := []struct {
		after time.Duration
		want  string
	}{
		{0, "0.0"},
		{250 * time.Millisecond, "0.25"},
		{61 * time.Second, "61.0"},
		{812*time.Second + 400*time.Millisecond, "812.4"},
		{time.Second + time.Millisecond, "1.001"},
		{2*time.Second + 120*time.Millisecond, "2.12"},
		{1499 * time.Microsecond, "0.001"},
		{1500 * time.Microsecond, "0.002"},
		{3 * time.Hour, "10800.0"},
		{-500 * time.Millisecond, "-0.5"},
	}
	for _, c := range cases {
		var out bytes.Buffer
		w := trace.New(&out, trace.JSONL, start, nil)
		w.End(start.Add(c.after), "x")
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		want := `{"t":` + c.want + `,"type":"end","reason":"x"}` + "\n"
		if out.String() != want {
			t.Errorf("%v: got %s want %s", c.after, out.String(), want)
		}
	}
}

func TestStringsAreValidJSON(t *testing.T) {
	var out bytes.Buffer
	w := trace.New(&out, trace.JSONL, start, nil)
	w.Action(start, "setEnv", "deployment/a\"b", "error: \"quoted\"\nline\t\x01 \\ é \u2028 \xff")
	_ = w.Flush()
	want := `{"t":0.0,"type":"action","action":"setEnv","target":"deployment/a\"b","result":"error: \"quoted\"\nline\t\u0001 \\ é \u2028 \ufffd"}` + "\n"
	if out.String() != want {
		t.Errorf("got  %s\nwant %s", out.String(), want)
	}
}

// A scripted action's line says what it set, in camelCase keys, and the
// table says it in STATUS; every table time has the same precision.
func TestActionLinesSayWhatTheySet(t *testing.T) {
	script := []scenario.Action{
		{Kind: scenario.ActionSetImage, Container: "web", Image: "web:v2"},
		{Kind: scenario.ActionScale, Replicas: 5},
		{Kind: scenario.ActionUndo, ToRevision: 1},
	}
	var out bytes.Buffer
	w := trace.New(&out, trace.JSONL, start, nil)
	w.Script(script)
	w.Action(start, "setImage", "deployment/web", "ok")
	w.Action(start.Add(1500*time.Millisecond), "scale", "deployment/web", "ok")
	w.Action(start.Add(2*time.Second), "undo", "deployment/web", "ok")
	_ = w.Flush()
	want := `{"t":0.0,"type":"action","action":"setImage","target":"deployment/web","container":"web","image":"web:v2","result":"ok"}
{"t":1.5,"type":"action","action":"scale","target":"deployment/web","replicas":5,"result":"ok"}
{"t":2.0,"type":"action","action":"undo","target":"deployment/web","toRevision":1,"result":"ok"}
`
	if out.String() != want {
		t.Errorf("got\n%swant\n%s", out.String(), want)
	}
	out.Reset()
	w = trace.New(&out, trace.Table, start, nil)
	w.Script(script)
	w.Action(start.Add(1500*time.Millisecond), "setImage", "deployment/web", "ok")
	_ = w.Flush()
	if rows := lines(out.String()); len(rows) != 2 || !strings.HasPrefix(rows[1], "1.500     action  deployment/web") || !strings.HasSuffix(rows[1], "setImage container=web image=web:v2: ok") {
		t.Errorf("table rows = %q", rows)
	}
}

func TestTableRowsStayOnOneLine(t *testing.T) {
	got := play(t, trace.Table, []step{added(1, event("e.1", "Node", "n", "Odd", "two\nlines\x1b[31m"))})
	rows := lines(got)
	if len(rows) != 2 || !strings.HasSuffix(rows[1], " Odd: two lines [31m") || !strings.HasPrefix(rows[1], "1.000     event ") {
		t.Errorf("table rows = %q", rows)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestFlushReportsWriteErrors(t *testing.T) {
	w := trace.New(failingWriter{}, trace.JSONL, start, nil)
	w.End(start, "quiescent")
	if err := w.Flush(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Flush() = %v, want the write error", err)
	}
}

func TestParseFormat(t *testing.T) {
	for _, s := range []string{"jsonl", "table"} {
		if f, err := trace.ParseFormat(s); err != nil || string(f) != s {
			t.Errorf("ParseFormat(%q) = %q, %v", s, f, err)
		}
	}
	if _, err := trace.ParseFormat("json"); err == nil || !strings.Contains(err.Error(), "use jsonl or table") {
		t.Errorf("ParseFormat(json) = %v", err)
	}
}

func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// TestTableColumnsAlign checks that counts sit under their headings, whatever
// the width of the time or the name before them.
func TestTableColumnsAlign(t *testing.T) {
	rows := lines(play(t, trace.Table, []step{
		added(0.25, replicaSet("a", "1", 3, 2, 1, 0)),
		added(812.4, replicaSet("frontend-6b9d5f7c8d", "1", 25, 25, 25, 25)),
		added(10000.125, deployment(100, 100, 100, 99, 98, 2, false, "ReplicaSetUpdated", corev1.ConditionTrue)),
	}))
	header := rows[0]
	for _, col := range []string{"DESIRED", "CURRENT", "READY", "AVAILABLE"} {
		at := strings.Index(header, col)
		for _, row := range rows[1:] {
			if at >= len(row) || row[at-1] != ' ' || row[at] == ' ' {
				t.Errorf("column %s (offset %d) does not start a value in %q", col, at, row)
			}
		}
	}
	if at := strings.Index(header, "STATUS"); !strings.HasSuffix(rows[3], "ReplicaSetUpdated") || strings.Index(rows[3], "ReplicaSetUpdated") != at {
		t.Errorf("progressing reason not under its heading: %q", rows[3])
	}
}

// TestConcurrentUse runs Observe, Action and End from several goroutines:
// under -race this proves the writer's locking, and every line must still be
// whole.
func TestConcurrentUse(t *testing.T) {
	var out bytes.Buffer
	w := trace.New(&out, trace.JSONL, start, groups)
	w.Observe(start, watch.Event{Type: watch.Added, Object: node("nodes-0", "v2", true, false)})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				name := fmt.Sprintf("p-%d-%d", g, i)
				w.Observe(at(float64(i)), watch.Event{Type: watch.Added, Object: pod(name, "nodes-0", corev1.PodRunning)})
				w.Action(at(float64(i)), "scale", "deployment/frontend", "ok")
			}
		}()
	}
	wg.Wait()
	w.End(at(100), "quiescent")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	rows := lines(out.String())
	// One node line per pod added (the count rises each time), one per action, the first node line and the end.
	if want := 1 + 200 + 200 + 1; len(rows) != want {
		t.Errorf("got %d lines, want %d", len(rows), want)
	}
	lastNode := ""
	for _, r := range rows {
		if strings.Contains(r, `"type":"node"`) {
			lastNode = r
		}
	}
	if !strings.Contains(lastNode, `"pods":200,`) {
		t.Errorf("the last node line should count all 200 pods: %s", lastNode)
	}
	for _, r := range rows {
		if !strings.HasPrefix(r, `{"t":`) || !strings.HasSuffix(r, "}") {
			t.Fatalf("torn line: %q", r)
		}
	}
}

func TestTypedNilObjectsAreIgnored(t *testing.T) {
	got := play(t, trace.JSONL, []step{
		added(1, (*corev1.Pod)(nil)), added(1, (*corev1.Node)(nil)), added(1, (*corev1.Event)(nil)),
	})
	if got != "" {
		t.Errorf("got %q", got)
	}
}

// A scenario of several namespaces: lines about objects outside the
// scenario's namespace name theirs, and an action line names its target's.
func TestLinesNameOtherNamespaces(t *testing.T) {
	ledger := scenario.Target{Kind: kind.Deployment, Name: "ledger", Namespace: "billing"}
	script := []scenario.Action{{Kind: scenario.ActionScale, Target: ledger, Replicas: 5}}
	event := func(ns string) *corev1.Event {
		return &corev1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "e-" + ns},
			InvolvedObject: corev1.ObjectReference{Kind: "Deployment", Namespace: ns, Name: "ledger"}, Reason: "ScalingReplicaSet", Message: "Scaled"}
	}
	for _, f := range []trace.Format{trace.JSONL, trace.Table} {
		var out bytes.Buffer
		w := trace.New(&out, f, start, nil)
		w.Home("shop")
		w.Script(script)
		w.Action(start, "scale", "deployment/ledger", "ok")
		w.Observe(start, watch.Event{Type: watch.Added, Object: event("billing")})
		w.Observe(start, watch.Event{Type: watch.Added, Object: event("shop")})
		_ = w.Flush()
		got := out.String()
		want := []string{
			`{"t":0.0,"type":"action","action":"scale","target":"deployment/ledger","namespace":"billing","replicas":5,"result":"ok"}`,
			`{"t":0.0,"type":"event","object":"deployment/ledger","namespace":"billing","reason":"ScalingReplicaSet","message":"Scaled"}`,
			`{"t":0.0,"type":"event","object":"deployment/ledger","reason":"ScalingReplicaSet","message":"Scaled"}`,
		}
		if f == trace.Table {
			want = []string{
				"0.000     action  deployment/ledger",
				"0.000     event   billing/deployment/ledger",
				"0.000     event   deployment/ledger",
			}
		}
		rows := lines(got)
		if f == trace.Table {
			rows = rows[1:]
		}
		if len(rows) != len(want) {
			t.Fatalf("%s: rows %q", f, rows)
		}
		for i, w := range want {
			if !strings.HasPrefix(rows[i], w) {
				t.Errorf("%s row %d = %q, want it to start %q", f, i, rows[i], w)
			}
		}
		if f == trace.Table && !strings.Contains(rows[0], "scale namespace=billing replicas=5: ok") {
			t.Errorf("table action row %q does not name the namespace", rows[0])
		}
	}
}

// Told the version each change replaced, as the embedded runner tells it,
// the writer counts a node's pods exactly as when it looks each pod up:
// through creation, binding, status writes, a move to a terminal phase,
// graceful deletion and removal, of pods on two nodes.
func TestNodeCountsAreTheSameToldWhatEachChangeReplaced(t *testing.T) {
	type change struct {
		ev   watch.Event
		prev runtime.Object
	}
	var changes []change
	latest := map[string]*corev1.Pod{}
	add := func(typ watch.EventType, p *corev1.Pod) {
		c := change{ev: watch.Event{Type: typ, Object: p}}
		if typ == watch.Modified {
			c.prev = latest[p.Name]
		}
		latest[p.Name] = p
		changes = append(changes, c)
	}
	for i, nodeName := range []string{"nodes-0", "nodes-1", "nodes-0"} {
		name := fmt.Sprintf("web-%d", i)
		add(watch.Added, pod(name, "", corev1.PodPending))
		add(watch.Modified, pod(name, nodeName, corev1.PodPending))
		add(watch.Modified, pod(name, nodeName, corev1.PodRunning))
		running := pod(name, nodeName, corev1.PodRunning)
		running.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
		add(watch.Modified, running)
	}
	add(watch.Modified, pod("web-1", "nodes-1", corev1.PodSucceeded))
	deleting := terminating(pod("web-0", "nodes-0", corev1.PodRunning))
	add(watch.Modified, deleting)
	add(watch.Deleted, deleting)
	add(watch.Deleted, pod("web-2", "nodes-0", corev1.PodRunning))

	write := func(told bool) string {
		var out bytes.Buffer
		w := trace.New(&out, trace.JSONL, start, groups)
		for _, n := range []string{"nodes-0", "nodes-1"} {
			w.Observe(start, watch.Event{Type: watch.Added, Object: node(n, "v2", true, false)})
		}
		for i, c := range changes {
			if told {
				w.ObserveChange(at(float64(i)), c.ev, c.prev)
			} else {
				w.Observe(at(float64(i)), c.ev)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	looked, told := write(false), write(true)
	if told != looked {
		t.Errorf("told what each change replaced, the trace is\n%s\nlooking each pod up, it is\n%s", told, looked)
	}
	if n := strings.Count(looked, `"pods":`); n < 6 {
		t.Errorf("the trace moved node counts %d times, want every bind and removal:\n%s", n, looked)
	}
}
