package recording

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
	rec "rollscope/model/recording"
)

// rollingBatches is a rolling update of n pods as the console's watch
// sends it: each pod's four versions, the ReplicaSets' and Deployment's.
func rollingBatches(n int) []cluster.Batch {
	synced := cluster.WatchStatus{Synced: true, Connected: true}
	var out []cluster.Batch
	at := t0
	for i := range n {
		objs := []runtime.Object{replicaSet(2, i+1), replicaSet(1, n-i-1)}
		for step := range 4 {
			p := pod(2, i, step, at)
			p.ResourceVersion = fmt.Sprint(i*4 + step)
			objs = append(objs, p)
		}
		out = append(out, cluster.Batch{At: at, Objects: objs, Watch: synced,
			Deleted: []cluster.ObjectRef{{Kind: "Pod", Namespace: "shop", Name: fmt.Sprintf("web-1-%d", i)}}})
		at = at.Add(time.Second)
	}
	return out
}

// TestEveryVersionReadsBackAsRecorded: the reader's decoding (merge
// patches on the bytes, each version straight into its type) gives back
// every object the console recorded, field for field: times, probes,
// quantities, owner references.
func TestEveryVersionReadsBackAsRecorded(t *testing.T) {
	batches := rollingBatches(20)
	path := filepath.Join(t.TempDir(), "rec.gz")
	w, err := Create(path, true)
	if err != nil {
		t.Fatal(err)
	}
	w.Begin(rec.Header{Env: true}, nil)
	for _, b := range batches {
		w.Batch(b)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tape, err := Open(path)
	if err != nil || tape.Problem != "" {
		t.Fatalf("open: %v, %q", err, tape.Problem)
	}
	var read []runtime.Object
	for _, f := range tape.Frames {
		read = append(read, f.Batch.Objects...)
	}
	var want []runtime.Object
	for _, b := range batches {
		want = append(want, b.Objects...)
	}
	if len(read) != len(want) {
		t.Fatalf("read %d objects, recorded %d", len(read), len(want))
	}
	for i := range want {
		if !equality.Semantic.DeepEqual(read[i], want[i]) {
			t.Fatalf("object %d reads back as\n%+v\nrecorded\n%+v", i, read[i], want[i])
		}
	}
}

// TestDamagedLinesAreOneLineNeverAPanic: a recording whose lines were
// changed at random (a byte replaced, dropped, or a quote or brace put in)
// but whose compression is whole — what a recorder's bug or a careless
// edit leaves — reads as the frames before the damage and one sentence
// saying where it is.
func TestDamagedLinesAreOneLineNeverAPanic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.gz")
	w, err := Create(path, false)
	if err != nil {
		t.Fatal(err)
	}
	w.Begin(rec.Header{}, nil)
	for _, b := range rollingBatches(8) {
		w.Batch(b)
	}
	w.Close()
	whole, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := plainLines(t, path)
	rnd := rand.New(rand.NewPCG(7, 7))
	for range 600 {
		damaged := append([][]byte(nil), lines...)
		n := 1 + rnd.IntN(len(lines)-1)
		line := append([]byte(nil), lines[n]...)
		at := rnd.IntN(len(line) - 1)
		switch rnd.IntN(3) {
		case 0:
			line[at] = `"{}[],:0an\`[rnd.IntN(11)]
		case 1:
			line = append(line[:at], line[at+1:]...)
		default:
			line = append(line[:at], append([]byte{`"{}[]`[rnd.IntN(5)]}, line[at:]...)...)
		}
		damaged[n] = line
		tape, err := Read(bytes.NewReader(gzipped(damaged)))
		if err != nil {
			t.Fatalf("line %d damaged at %d: %v", n, at, err)
		}
		if strings.Contains(tape.Problem, "\n") || len(tape.Frames) > len(whole.Frames) {
			t.Fatalf("line %d damaged at %d: %d frames of %d, problem %q", n, at, len(tape.Frames), len(whole.Frames), tape.Problem)
		}
		if tape.Problem == "" && (len(tape.Frames) != len(whole.Frames) || !json.Valid(line)) {
			t.Fatalf("line %d damaged at %d: %d frames of %d and no problem said of %s", n, at, len(tape.Frames), len(whole.Frames), line)
		}
	}
}

// plainLines is a recording's lines, uncompressed.
func plainLines(t *testing.T, path string) [][]byte {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]byte
	s := bufio.NewScanner(gz)
	s.Buffer(nil, 1<<24)
	for s.Scan() {
		lines = append(lines, append([]byte(nil), s.Bytes()...))
	}
	return lines
}

func gzipped(lines [][]byte) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	for _, l := range lines {
		gz.Write(append(l, '\n'))
	}
	gz.Close()
	return buf.Bytes()
}
