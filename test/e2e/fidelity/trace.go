package fidelity

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Line is one line of a rollscope trace (engine/trace's JSONL) with the
// fields the comparison reads. Node lines keep only their name: node names
// differ between an embedded run and a live one, whose hollow nodes carry a
// prefix of their own.
type Line struct {
	// N is the line's number in its trace, from 1.
	N    int
	T    float64 `json:"t"`
	Type string  `json:"type"`

	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Owner     string `json:"owner"`
	Deleted   bool   `json:"deleted"`
	Revision  int64  `json:"revision"`

	// Spec is spec.replicas of a Deployment or ReplicaSet; the others are
	// their status counts.
	Spec, Replicas, Updated, Ready, Available, Unavailable int32 `json:"-"`

	Paused             bool   `json:"paused"`
	Progressing        string `json:"progressing"`
	AvailableCondition string `json:"availableCondition"`

	Action string `json:"action"`
	Target string `json:"target"`
	Result string `json:"result"`

	Object  string `json:"object"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// Trace types the comparison reads.
const (
	typeDeployment = "deployment"
	typeReplicaSet = "replicaset"
	typeNode       = "node"
	typeEvent      = "event"
	typeAction     = "action"
	typeEnd        = "end"
)

// counts holds the integer fields apart, because node lines use "ready" for
// a boolean.
type counts struct {
	Spec        int32 `json:"spec"`
	Replicas    int32 `json:"replicas"`
	Updated     int32 `json:"updated"`
	Ready       int32 `json:"ready"`
	Available   int32 `json:"available"`
	Unavailable int32 `json:"unavailable"`
}

// Trace is a parsed trace and where it came from ("embedded", "live").
type Trace struct {
	Source string
	Lines  []Line
	// Raw is the trace as it was written.
	Raw []byte
}

// ParseTrace reads JSONL trace output. Unknown fields are ignored, so that
// the trace format may grow without breaking the comparison.
func ParseTrace(source string, data []byte) (*Trace, error) {
	tr := &Trace{Source: source, Raw: data}
	for i, raw := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		var l Line
		if err := json.Unmarshal(raw, &l); err != nil {
			return nil, fmt.Errorf("%s trace, line %d: not a trace line (%w): %.120s", source, i+1, err, raw)
		}
		if l.Type != typeNode {
			var c counts
			if err := json.Unmarshal(raw, &c); err != nil {
				return nil, fmt.Errorf("%s trace, line %d: bad counts (%w): %.120s", source, i+1, err, raw)
			}
			l.Spec, l.Replicas, l.Updated, l.Ready, l.Available, l.Unavailable = c.Spec, c.Replicas, c.Updated, c.Ready, c.Available, c.Unavailable
		}
		l.N = i + 1
		tr.Lines = append(tr.Lines, l)
	}
	if len(tr.Lines) == 0 {
		return nil, fmt.Errorf("%s trace is empty", source)
	}
	return tr, nil
}

// End is the reason of the trace's end line, or "" when it has none.
func (tr *Trace) End() string {
	last := tr.Lines[len(tr.Lines)-1]
	if last.Type != typeEnd {
		return ""
	}
	return last.Reason
}
