package recording

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"rollscope/model/cluster"
	rec "rollscope/model/recording"
)

var t0 = time.Date(2026, 3, 1, 3, 12, 0, 0, time.UTC)

func deployment(replicas int32, env string) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web", ResourceVersion: "v" + string(rune('0'+replicas))},
		Spec: appsv1.DeploymentSpec{Replicas: ptr.To(replicas), Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			Containers: []corev1.Container{{Name: "web", Image: "web:1", Env: []corev1.EnvVar{{Name: "TOKEN", Value: env}}}}}}},
	}
}

// record writes batches to a new recording and returns its path.
func record(t *testing.T, h rec.Header, batches ...cluster.Batch) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rec.gz")
	w, err := Create(path, h.Env)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Begin(h, nil); err != nil {
		t.Fatal(err)
	}
	for _, b := range batches {
		w.Batch(b)
	}
	w.Action("shop", "web", cluster.TimelineEntry{Time: t0.Add(3 * time.Second), Message: "paused"})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func threeBatches() []cluster.Batch {
	synced := cluster.WatchStatus{Synced: true, Connected: true}
	return []cluster.Batch{
		{At: t0, Objects: []runtime.Object{deployment(3, "s3cret")}, Watch: synced},
		{At: t0.Add(time.Second), Objects: []runtime.Object{deployment(5, "s3cret")}, Watch: synced},
		{At: t0.Add(2 * time.Second), Deleted: []cluster.ObjectRef{{Kind: "Deployment", Namespace: "shop", Name: "web"}}, Watch: synced},
	}
}

func TestRoundTripTellsEachVersionAndMasksEnv(t *testing.T) {
	path := record(t, rec.Header{Context: "prod", User: "alice"}, threeBatches()...)
	raw, _ := os.ReadFile(path)
	if bytes.Contains(raw, []byte("s3cret")) {
		t.Fatal("the recording is not compressed, or keeps the env value")
	}
	tape, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if tape.Problem != "" || tape.Header.Context != "prod" || len(tape.Frames) != 4 {
		t.Fatalf("tape: problem %q, header %+v, %d frames", tape.Problem, tape.Header, len(tape.Frames))
	}
	second := tape.Frames[1].Batch.Objects[0].(*appsv1.Deployment)
	if *second.Spec.Replicas != 5 || second.Spec.Template.Spec.Containers[0].Env[0].Value != rec.Masked {
		t.Fatalf("second version: replicas %d, env %q", *second.Spec.Replicas, second.Spec.Template.Spec.Containers[0].Env[0].Value)
	}
	if !tape.Frames[2].Batch.Watch.Synced || len(tape.Frames[2].Batch.Deleted) != 1 {
		t.Fatalf("third frame: %+v", tape.Frames[2].Batch)
	}
	if a := tape.Frames[3].Action; a == nil || a.User != "alice" || a.Entry.Message != "paused" {
		t.Fatalf("action frame: %+v", tape.Frames[3])
	}
}

func TestRecordEnvKeepsValues(t *testing.T) {
	tape, err := Open(record(t, rec.Header{Env: true}, threeBatches()...))
	if err != nil {
		t.Fatal(err)
	}
	if v := tape.Frames[1].Batch.Objects[0].(*appsv1.Deployment).Spec.Template.Spec.Containers[0].Env[0].Value; v != "s3cret" {
		t.Fatalf("env value %q with --record-env", v)
	}
}

func TestSecondVersionIsAPatch(t *testing.T) {
	d := rec.NewDeltas()
	ref := rec.Ref{Kind: "Deployment", Namespace: "shop", Name: "web"}
	first, _ := d.Tell(ref, []byte(`{"a":1,"b":{"c":"a long value that stays the same"}}`))
	second, _ := d.Tell(ref, []byte(`{"a":2,"b":{"c":"a long value that stays the same"}}`))
	if first.Object == nil || second.Patch == nil || string(second.Patch) != `{"a":2}` {
		t.Fatalf("first %s, second patch %s", first.Object, second.Patch)
	}
	if _, changed := d.Tell(ref, []byte(`{"a":2,"b":{"c":"a long value that stays the same"}}`)); changed {
		t.Fatal("the same version told again")
	}
}

// TestCutOffRecordingReadsItsWholeSeconds: a recorder killed mid-way
// leaves a member unfinished; what was closed before it is replayed.
func TestCutOffRecordingReadsItsWholeSeconds(t *testing.T) {
	raw, _ := os.ReadFile(record(t, rec.Header{}, threeBatches()...))
	// One more member, cut off half-way, as a killed recorder leaves it.
	var more bytes.Buffer
	gz := gzip.NewWriter(&more)
	gz.Write([]byte(`{"t":"2026-03-01T03:12:09Z","o":[{"k":"Deployment","ns":"shop","n":"web","f":{"metadata":{"name":"web"}}}]}` + "\n"))
	gz.Close()
	cut := append(raw, more.Bytes()[:more.Len()/2]...)
	tape, err := Read(bytes.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	if len(tape.Frames) != 4 || !strings.Contains(tape.Problem, "cut off") || !strings.Contains(tape.Problem, "03:12:03") {
		t.Fatalf("%d frames, problem %q", len(tape.Frames), tape.Problem)
	}
}

func TestDamagedRecordingReadsUpToTheDamage(t *testing.T) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	gz.Write([]byte(`{"format":"rollscope-recording","version":1}` + "\n"))
	gz.Write([]byte(`{"t":"2026-03-01T03:12:00Z","w":{"Synced":true}}` + "\n"))
	gz.Write([]byte(`{"t":"2026-03-01T03:12:01Z","o":[{"k":"Deployment","ns":"shop","n":"web","p":{"a":1}}]}` + "\n"))
	gz.Close()
	tape, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(tape.Frames) != 1 || !strings.Contains(tape.Problem, "damaged after 03:12:00") {
		t.Fatalf("%d frames, problem %q", len(tape.Frames), tape.Problem)
	}
}

func TestRefusedFiles(t *testing.T) {
	newer := func() []byte {
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		gz.Write([]byte(`{"format":"rollscope-recording","version":2}` + "\n"))
		gz.Close()
		return buf.Bytes()
	}
	plain := func(s string) []byte {
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		gz.Write([]byte(s))
		gz.Close()
		return buf.Bytes()
	}
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"newer":        {newer(), "format version 2 and this rollscope reads version 1"},
		"text file":    {[]byte("apiVersion: v1\nkind: Pod\n"), "not a rollscope recording"},
		"other gzip":   {plain("hello\n"), "not a rollscope recording"},
		"empty":        {nil, "not a rollscope recording"},
		"empty header": {plain(""), "not a rollscope recording"},
	} {
		path := filepath.Join(t.TempDir(), "f")
		os.WriteFile(path, c.data, 0o600)
		_, err := Open(path)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line saying %q", name, err, c.want)
		}
	}
}

func TestUnwritablePathIsRefusedAtStart(t *testing.T) {
	_, err := Create(filepath.Join(t.TempDir(), "no-such-dir", "rec.gz"), false)
	if err == nil || !strings.Contains(err.Error(), "cannot record to") {
		t.Fatalf("got %v", err)
	}
}

// A recording closed before it began — the command refused its input
// before the console started — closes without error and leaves no file
// behind for replay to refuse.
func TestARecordingThatNeverBeganLeavesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.gz")
	w, err := Create(path, false)
	if err != nil {
		t.Fatal(err)
	}
	w.Batch(cluster.Batch{At: t0, Objects: []runtime.Object{deployment(3, "")}})
	if err := w.Close(); err != nil {
		t.Fatalf("closing a recording that never began: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a recording that never began left %s behind (%v)", path, err)
	}
}

// TestUnconvertibleObjectIsDamage: a line read whole whose object is not
// of its kind's shape ends the tape before it, whatever follows.
func TestUnconvertibleObjectIsDamage(t *testing.T) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	gz.Write([]byte(`{"format":"rollscope-recording","version":1}` + "\n"))
	gz.Write([]byte(`{"t":"2026-03-01T03:12:00Z","o":[{"k":"Deployment","ns":"shop","n":"api","f":{"metadata":{"name":"api"}}}]}` + "\n"))
	gz.Write([]byte(`{"t":"2026-03-01T03:12:01Z","o":[{"k":"Deployment","ns":"shop","n":"web","f":{"spec":{"replicas":"many"}}}]}` + "\n"))
	gz.Write([]byte(`{"t":"2026-03-01T03:12:02Z","w":{"Synced":true}}` + "\n"))
	gz.Close()
	tape, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(tape.Frames) != 1 || !strings.Contains(tape.Problem, "damaged after 03:12:00") || !strings.Contains(tape.Problem, "Deployment shop/web: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32)") {
		t.Fatalf("%d frames, problem %q", len(tape.Frames), tape.Problem)
	}
	if len(tape.Frames[0].Batch.Objects) != 1 {
		t.Fatalf("the frame before the damage has %d objects", len(tape.Frames[0].Batch.Objects))
	}
}

// A recording runs to the moment it was closed, not to its last second's
// mark: what the console showed just before it quit can be replayed. A
// clock far from the batches' (a recording of another clock's times) does
// not stretch it.
func TestARecordingRunsToItsClose(t *testing.T) {
	for name, tc := range map[string]struct {
		closedAt, wantEnd time.Time
	}{
		"closed 1.7s after its last batch":     {t0.Add(2 * time.Second), t0.Add(2 * time.Second)},
		"an embedded clock at ×10, 9s on":      {t0.Add(9300 * time.Millisecond), t0.Add(9300 * time.Millisecond)},
		"a clock months away from the batches": {t0.Add(90 * 24 * time.Hour), t0.Add(300 * time.Millisecond)},
	} {
		path := filepath.Join(t.TempDir(), "rec.gz")
		w, err := Create(path, false)
		if err != nil {
			t.Fatal(err)
		}
		var now atomic.Int64 // the flushing goroutine reads the clock too
		now.Store(t0.UnixNano())
		if err := w.Begin(rec.Header{Started: t0}, func() time.Time { return time.Unix(0, now.Load()) }); err != nil {
			t.Fatal(err)
		}
		w.Batch(cluster.Batch{At: t0.Add(300 * time.Millisecond), Objects: []runtime.Object{deployment(3, "")}})
		now.Store(tc.closedAt.UnixNano())
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		tape, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if !tape.End().Equal(tc.wantEnd) {
			t.Errorf("%s: the recording ends at %s, want %s", name, tape.End().Format(time.StampMilli), tc.wantEnd.Format(time.StampMilli))
		}
	}
}
