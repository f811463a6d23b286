// Package recording is the flight recorder's format: what a recording
// says, line by line, and how an object's versions are told as the changes
// between them. It is pure; kube/recording writes and reads the files.
//
// A recording is JSON lines, gzip-compressed in members of at most a
// second each (docs/recording.md). The first line is the Header; every
// other line is a Record: one watch batch as the console received it, or
// one action the console sent.
package recording

import (
	"encoding/json"
	"fmt"
	"time"

	"rollscope/model/cluster"
)

// Format names a recording in its header line.
const Format = "rollscope-recording"

// Version is the format this rollscope writes and the newest it reads.
const Version = 1

// Header is a recording's first line.
type Header struct {
	Format  string    `json:"format"`
	Version int       `json:"version"`
	Started time.Time `json:"started"`
	// Context is the kubeconfig context recorded ("embedded" for the
	// embedded cluster); User the kubeconfig user the console acted as.
	Context string `json:"context,omitempty"`
	User    string `json:"user,omitempty"`
	// Namespace is the one watched; "" watched every namespace.
	Namespace string `json:"namespace,omitempty"`
	// Env is true when environment variables' values were kept
	// (--record-env); otherwise each value reads "***".
	Env bool `json:"env,omitempty"`
}

// Record is one line after the header: a batch, or an action.
type Record struct {
	// At is the batch's time on the cluster's clock (cluster.Batch.At),
	// or when the action was sent.
	At      time.Time            `json:"t"`
	Objects []Change             `json:"o,omitempty"`
	Deleted []Ref                `json:"d,omitempty"`
	Watch   *cluster.WatchStatus `json:"w,omitempty"`
	Action  *Action              `json:"a,omitempty"`
	// Paused marks where the console's clock stopped (the embedded
	// cluster's space, or a dialog holding it): the picture the operator
	// had before them for as long as it stood. The clock reads that second
	// for all of it, so a replay sent to that second lands here rather
	// than at the second's end. Readers that predate it skip it.
	Paused bool `json:"paused,omitempty"`
}

// Ref names an object as a batch does.
type Ref struct {
	Kind      string `json:"k"`
	Namespace string `json:"ns,omitempty"`
	Name      string `json:"n"`
}

// ObjectRef is the ref as the read model names it.
func (r Ref) ObjectRef() cluster.ObjectRef {
	return cluster.ObjectRef{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}
}

// RefOf is the recording's name of ref.
func RefOf(ref cluster.ObjectRef) Ref { return Ref{ref.Kind, ref.Namespace, ref.Name} }

// Change is one object's new version: whole (Object) the first time it is
// recorded, after that the JSON merge patch (RFC 7386) from the version
// recorded before (Patch).
type Change struct {
	Ref
	Object json.RawMessage `json:"f,omitempty"`
	Patch  json.RawMessage `json:"p,omitempty"`
}

// Action is what the console sent, as its timeline tells it, and who sent
// it.
type Action struct {
	Namespace string                `json:"ns"`
	Name      string                `json:"n"`
	Entry     cluster.TimelineEntry `json:"e"`
	User      string                `json:"u,omitempty"`
}

// CheckHeader says what is wrong with a first line, in one sentence, or
// nil when this rollscope reads the recording.
func CheckHeader(line []byte) (Header, error) {
	var h Header
	if err := json.Unmarshal(line, &h); err != nil || h.Format != Format {
		return h, ErrNotRecording
	}
	if h.Version > Version || h.Version < 1 {
		return h, fmt.Errorf("it is a recording of format version %d and this rollscope reads version %d: replay it with a newer rollscope", h.Version, Version)
	}
	return h, nil
}

// ErrNotRecording is a file that does not start with a recording's header.
var ErrNotRecording = fmt.Errorf("it is not a rollscope recording (record one with --record-to FILE or rollscope record -o FILE)")
