package recording

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"time"

	jsoniter "github.com/json-iterator/go"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
	rec "rollscope/model/recording"
)

// Tape is a recording read into memory: its header and its frames in
// the order recorded.
type Tape struct {
	Header rec.Header
	Frames []Frame
	// Problem says, in one sentence, why the tape ends before the
	// recording did (cut off, damaged); "" when it was read to its end.
	Problem string
	// Pauses are the moments the console's clock was stopped, in order.
	Pauses []time.Time
}

// Frame is one recorded batch, or one action (Action set, Batch empty),
// or the mark of a pause (Paused, Batch empty).
type Frame struct {
	Batch  cluster.Batch
	Action *rec.Action
	Paused bool
}

// Changes reports whether the frame changed anything: a second the
// recorder marked as quiet does not.
func (f Frame) Changes() bool {
	return f.Action != nil || len(f.Batch.Objects) > 0 || len(f.Batch.Deleted) > 0
}

// At is when the frame happened on the cluster's clock.
func (f Frame) At() time.Time { return f.Batch.At }

// Start and End are the recorded span: the first and the last frame.
func (t *Tape) Start() time.Time {
	if len(t.Frames) == 0 {
		return t.Header.Started
	}
	return t.Frames[0].At()
}

func (t *Tape) End() time.Time {
	if len(t.Frames) == 0 {
		return t.Header.Started
	}
	return t.Frames[len(t.Frames)-1].At()
}

// Open reads the recording at path. A file that is not a recording, or
// of a newer format, is an error; one cut off or damaged part-way is read
// up to the last whole line before the damage, and Problem says so.
func Open(path string) (*Tape, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot replay %s: %w", path, err)
	}
	defer f.Close()
	t, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("cannot replay %s: %w", path, err)
	}
	return t, nil
}

// Read reads a recording from r (see Open).
func Read(r io.Reader) (*Tape, error) {
	gz, err := gzip.NewReader(bufio.NewReaderSize(r, 1<<16))
	if err != nil {
		return nil, rec.ErrNotRecording
	}
	lines := bufio.NewReaderSize(gz, 1<<16)
	first, err := lines.ReadBytes('\n')
	if err != nil && len(first) == 0 {
		return nil, rec.ErrNotRecording
	}
	h, err := rec.CheckHeader(first)
	if err != nil {
		return nil, err
	}
	t := &Tape{Header: h}
	deltas := rec.NewVersions()
	var watch cluster.WatchStatus // recorded when it changes; every batch carries it
	for {
		line, err := lines.ReadBytes('\n')
		if err != nil {
			// A last line with no newline was cut off mid-way: it is
			// not read, whatever it holds.
			if !errors.Is(err, io.EOF) || len(line) > 0 {
				t.Problem = t.cutOff(err)
			}
			return t, nil
		}
		f, err := frameOf(line, deltas, &watch)
		if err != nil {
			t.Problem = t.damaged(err)
			return t, nil
		}
		// A quiet second's mark is stamped as the recorder's ticker
		// reads the clock, a batch as the watch read it: the one written
		// after may be a little earlier. Frames keep the order written.
		if n := len(t.Frames); n > 0 && f.Batch.At.Before(t.Frames[n-1].At()) {
			f.Batch.At = t.Frames[n-1].At()
		}
		t.Frames = append(t.Frames, f)
		if f.Paused {
			t.Pauses = append(t.Pauses, f.At())
		}
	}
}

// cutOff and damaged say where the tape stops and why.
func (t *Tape) cutOff(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Sprintf("the recording was cut off: replaying it up to %s, its last whole second", t.End().Format(time.TimeOnly))
	}
	return t.damaged(err)
}

func (t *Tape) damaged(err error) string {
	return fmt.Sprintf("the recording is damaged after %s (%v): replaying it up to there", t.End().Format(time.TimeOnly), err)
}

// frameOf decodes one record.
func frameOf(line []byte, deltas *rec.Versions, watch *cluster.WatchStatus) (Frame, error) {
	var r rec.Record
	if err := decode(bytes.TrimSpace(line), &r); err != nil {
		return Frame{}, err
	}
	f := Frame{Batch: cluster.Batch{At: r.At}, Action: r.Action, Paused: r.Paused}
	for _, c := range r.Objects {
		newObj, ok := kinds[c.Kind]
		if !ok {
			return Frame{}, fmt.Errorf("an object of unknown kind %q", c.Kind)
		}
		data, err := deltas.Read(c)
		if err != nil {
			return Frame{}, err
		}
		obj := newObj()
		if err := decode(data, obj); err != nil {
			return Frame{}, fmt.Errorf("%s %s/%s: %w", c.Kind, c.Namespace, c.Name, err)
		}
		f.Batch.Objects = append(f.Batch.Objects, obj.(runtime.Object))
	}
	for _, ref := range r.Deleted {
		deltas.Forget(ref)
		f.Batch.Deleted = append(f.Batch.Deleted, ref.ObjectRef())
	}
	if r.Watch != nil {
		*watch = *r.Watch
	}
	f.Batch.Watch = *watch
	return f, nil
}

// decode is json.Unmarshal's verdict and words at json-iterator's speed:
// decoding is most of opening a recording, and json-iterator (strict, as
// built by default) decodes the Kubernetes types, their own
// UnmarshalJSON methods included, in half encoding/json's time. A line it
// refuses is decoded again by encoding/json, whose one-line error the
// tape's Problem quotes; json-iterator's quotes the bytes around it.
func decode(data []byte, v any) error {
	if jsoniter.ConfigCompatibleWithStandardLibrary.Unmarshal(data, v) == nil {
		return nil
	}
	reflect.ValueOf(v).Elem().SetZero()
	return json.Unmarshal(data, v)
}
