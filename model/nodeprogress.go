package model

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// NodeProgress is a node's drain and roll as its annotations tell them, so
// the console shows the same thing after a restart as before it.
type NodeProgress struct {
	// DrainRequested is set while a drain is asked of the node.
	DrainRequested bool
	// PodsLeft is how many pods the drain still waits for, once
	// PodsLeftKnown (the drain has said).
	PodsLeft      int
	PodsLeftKnown bool
	// Blocked are the pods a PodDisruptionBudget holds back, each with
	// the budget and the disruptions it allows ("ns/pod: PodDisruptionBudget
	// ns/name allows 0 disruptions (6 healthy, 6 needed)").
	Blocked []string
	// DrainMessage is why a drain failed, or kubectl's warnings.
	DrainMessage string
	// Roll is the node-group roll the node is in; Roll.State is "" when
	// it is in none.
	Roll NodeRoll
}

// NodeRoll is one node's view of its group's roll.
type NodeRoll struct {
	// ID tells rolls apart (the time the roll was requested).
	ID    string
	State string // one of the Roll states: RollRunning ... RollFinished
	// Message says why a roll failed or what a stop left behind.
	Message string
	// Step is the node's own step: "" (not started yet), RollStepDraining,
	// or RollStepDrained (left cordoned for the user's machinery to replace).
	Step string
	// Stepping is set for a roll that waits for n after every node.
	Stepping bool
	// Count is how many nodes the roll replaces in all.
	Count int
	// Size is how many attached nodes the group had when the roll was
	// asked: between nodes the roll waits until as many are Ready again.
	Size int
	// Role is the group's kops role, which places its roll in RollOrder.
	Role string
	// FailsAt is when the roll fails unless the cluster validates first;
	// zero unless this node carries the deadline of a failing validation
	// (RollFailsAtAnnotation).
	FailsAt time.Time
}

// Active reports whether the roll still has work to do.
func (r NodeRoll) Active() bool {
	return RollActive(r.State)
}

// rollSpec is the part of the roll annotation the console shows.
type rollSpec struct {
	ID    string `json:"id"`
	Step  bool   `json:"step"`
	Count int    `json:"count"`
	Size  int    `json:"size"`
	Role  string `json:"role"`
}

// NodeProgressOf reads n's drain and roll annotations.
func NodeProgressOf(n *corev1.Node) NodeProgress {
	a := n.Annotations
	p := NodeProgress{DrainMessage: a[DrainMessageAnnotation]}
	_, p.DrainRequested = a[DrainRequestAnnotation]
	if v, err := strconv.Atoi(a[DrainPodsLeftAnnotation]); err == nil {
		p.PodsLeft, p.PodsLeftKnown = v, true
	}
	for _, b := range strings.Split(a[DrainBlockedAnnotation], "; ") {
		if b = strings.TrimSpace(b); b != "" {
			p.Blocked = append(p.Blocked, b)
		}
	}
	if raw, ok := a[RollAnnotation]; ok {
		var sp rollSpec
		// A roll annotation the console cannot read still puts the
		// node in a roll: its state is shown as written.
		_ = json.Unmarshal([]byte(raw), &sp)
		p.Roll = NodeRoll{ID: sp.ID, State: a[RollStateAnnotation], Message: a[RollMessageAnnotation],
			Step: a[RollNodeAnnotation], Stepping: sp.Step, Count: sp.Count, Size: sp.Size, Role: sp.Role}
		if p.Roll.State == "" {
			p.Roll.State = RollRunning
		}
		if at, err := time.Parse(time.RFC3339Nano, a[RollFailsAtAnnotation]); err == nil {
			p.Roll.FailsAt = at
		}
	}
	return p
}
