package cluster

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"rollscope/model/kind"
)

// The fleet is every rollout in the watched scope on one screen, ranked by how
// much it needs a human: the first question of an on-call shift is what is
// rolling out and what is stuck, not how one deployment is doing.

// FleetState is a workload's rollout state in the fleet. The order of the
// constants is the urgency order: a lower state needs a human sooner.
type FleetState int

const (
	// FleetFailed: the rollout exceeded its progress deadline; `kubectl
	// rollout status` would exit 1.
	FleetFailed FleetState = iota
	// FleetStuck: a blocker names what no waiting fixes (an image that
	// cannot be pulled, a drain a budget holds), or it has made no progress
	// for fleetStuckAfter — pods that fit on no node too: the scheduler
	// places them once a node registers or frees up.
	FleetStuck
	// FleetCrashLooping: some of its pods are crash-looping (restarting
	// containers), whatever the rollout says.
	FleetCrashLooping
	// FleetPaused: paused by someone (spec.paused), not by a canary.
	FleetPaused
	// FleetCanary: a guided canary is under way (Word says the step).
	FleetCanary
	// FleetRolling: a rollout is under way and moving.
	FleetRolling
	// FleetNodeRoll: the workload is rolled out, but nodes under it are
	// being drained or replaced and its pods are moving.
	FleetNodeRoll
	// FleetComplete: rolled out; nothing to do.
	FleetComplete
)

// fleetWords are the state words as the fleet shows them and as
// `/state:WORD` filters them.
var fleetWords = [...]string{
	FleetFailed:       "failed",
	FleetStuck:        "stuck",
	FleetCrashLooping: "crash-looping",
	FleetPaused:       "paused",
	FleetCanary:       "canary",
	FleetRolling:      "rolling",
	FleetNodeRoll:     "node roll",
	FleetComplete:     "complete",
}

func (s FleetState) String() string {
	if s < 0 || int(s) >= len(fleetWords) {
		return fmt.Sprintf("FleetState(%d)", int(s))
	}
	return fleetWords[s]
}

// FleetStates are every state, most urgent first.
func FleetStates() []FleetState {
	out := make([]FleetState, len(fleetWords))
	for i := range out {
		out[i] = FleetState(i)
	}
	return out
}

// parseFleetState reads a state word as an operator types it after
// `/state:`: as the fleet shows it ("node roll", quoted or not), with a
// hyphen for its space ("node-roll"), or a short form ("crashloop").
func parseFleetState(word string) (FleetState, bool) {
	w := strings.ReplaceAll(strings.ToLower(strings.Trim(strings.TrimSpace(word), `"'`)), " ", "-")
	switch w {
	case "noderoll":
		return FleetNodeRoll, true
	case "crashloop", "crashlooping", "crash":
		return FleetCrashLooping, true
	case "done":
		return FleetComplete, true
	}
	for i := range fleetWords {
		if typedState(FleetState(i)) == w {
			return FleetState(i), true
		}
	}
	return 0, false
}

// typedState is a state word as one word of a filter: "node-roll".
func typedState(s FleetState) string { return strings.ReplaceAll(fleetWords[s], " ", "-") }

// argoWords are the words a Rollout's row shows for states of its own,
// within FleetFailed and FleetPaused: `/state:` keeps the rows showing
// one, as it keeps the rows of a state.
var argoWords = []string{wordDegraded, wordAborted, wordAnalysisFailed, wordAwaitingPromotion}

// parseArgoWord reads one of argoWords as parseFleetState reads a state.
func parseArgoWord(word string) (string, bool) {
	w := strings.ReplaceAll(strings.ToLower(strings.Trim(strings.TrimSpace(word), `"'`)), "-", " ")
	return w, slices.Contains(argoWords, w)
}

// fleetStuckAfter is how long a rollout may make no progress before the
// fleet calls it stuck, when nothing more specific names why.
const fleetStuckAfter = 2 * time.Minute

// FleetRow is one workload's line in the fleet.
type FleetRow struct {
	// Cluster is the kubeconfig context the row was read from: the console
	// stamps it on every row of a cluster's picture (one picture each).
	Cluster   string
	Namespace string
	// Kind is the workload's kind; the KIND column and Ref show its short
	// name ("sts"), as kubectl's `kind/NAME` takes it.
	Kind kind.Kind
	Name string
	// Revision is the workload's current revision (0 when it has none,
	// as a ReplicationController).
	Revision int64
	// Images are the containers' images now ("name=image"); From the
	// ones it is rolling from, set only while a rollout runs and they
	// differ.
	Images, From []string
	// Desired, Updated and Available are the progress bar's numbers.
	Desired, Updated, Available int32
	State                       FleetState
	// Word is the state as shown: "canary step 2/4" for a canary, else
	// State's word.
	Word string
	// Why is one line saying what the state rests on: the blocker, the
	// deadline's message, the crash-looping pod; "" when complete.
	Why string
	// Since is when the current rollout began (the age column);
	// Changed when the row's figures last moved (recency).
	Since, Changed time.Time
	// ChangeCause is the last change-cause, as `kubectl rollout history`
	// shows it.
	ChangeCause string
	// Others and Spread are set on a row that stands for the same
	// workload in several clusters (GroupFleet): how many clusters beside
	// Cluster, the most urgent one, and each one's revision, images and
	// state.
	Others int
	Spread string
}

// Ref is the row's kind/NAME, as rollscope's argument takes it.
func (r FleetRow) Ref() string { return short(r.Kind) + "/" + r.Name }

// short is the kind's short name, as the fleet shows it.
func short(k kind.Kind) string {
	e, _ := k.Entry()
	return e.Short
}

// SortFleet orders rows by urgency, then the most recently changed first,
// then by namespace, kind and name so that equal rows keep still.
func SortFleet(rows []FleetRow) {
	slices.SortStableFunc(rows, func(a, b FleetRow) int {
		return cmp.Or(
			cmp.Compare(a.State, b.State),
			b.Changed.Compare(a.Changed),
			strings.Compare(a.Namespace, b.Namespace),
			strings.Compare(short(a.Kind), short(b.Kind)),
			strings.Compare(a.Name, b.Name),
			strings.Compare(a.Cluster, b.Cluster),
		)
	})
}

// MergeFleets is one fleet of several clusters' rows, each list sorted by
// SortFleet: by urgency across them. One list is its own merge (shared, as
// Cluster.Fleet hands it out); several are copied into a new slice.
func MergeFleets(lists ...[]FleetRow) []FleetRow {
	if len(lists) == 1 {
		return lists[0]
	}
	var out []FleetRow
	for _, l := range lists {
		out = append(out, l...)
	}
	SortFleet(out)
	return out
}

// FleetFilter is what `/` typed in the fleet keeps: words that must each
// appear in the row's namespace/kind/name, and states from `state:WORD`
// (any of them: a state, or a Rollout's own word for one, StateWords),
// `ns:NAME` for an exact namespace, `ctx:NAME` for an exact cluster
// (kubeconfig context).
type FleetFilter struct {
	Words      []string
	States     []FleetState
	StateWords []string
	Namespace  string
	Cluster    string
}

// ParseFleetFilter reads the text typed after `/`: "pay state:stuck",
// "ns:billing", "state:paused state:failed". An unknown state word is an
// error naming the words there are.
func ParseFleetFilter(text string) (FleetFilter, error) {
	var f FleetFilter
	fields := strings.Fields(text)
	for i := 0; i < len(fields); i++ {
		key, val, ok := strings.Cut(fields[i], ":")
		switch {
		case ok && (key == "state" || key == "s"):
			if st, known := parseFleetState(val); known {
				f.States = append(f.States, st)
				continue
			}
			if w, known := parseArgoWord(val); known {
				f.StateWords = append(f.StateWords, w)
				continue
			}
			if i+1 < len(fields) {
				// A state of two words as the fleet shows it: `state:node
				// roll`, `state:"awaiting promotion"`.
				two := val + " " + fields[i+1]
				if st, known := parseFleetState(two); known {
					f.States, i = append(f.States, st), i+1
					continue
				}
				if w, known := parseArgoWord(two); known {
					f.StateWords, i = append(f.StateWords, w), i+1
					continue
				}
			}
			words := make([]string, 0, len(fleetWords)+len(argoWords))
			for s := range fleetWords {
				words = append(words, typedState(FleetState(s)))
			}
			for _, w := range argoWords {
				words = append(words, strings.ReplaceAll(w, " ", "-"))
			}
			return FleetFilter{}, fmt.Errorf("%q is not a rollout state: use one of %s", val, strings.Join(words, ", "))
		case ok && (key == "ns" || key == "namespace"):
			f.Namespace = val
		case ok && (key == "ctx" || key == "context" || key == "cluster"):
			f.Cluster = val
		default:
			f.Words = append(f.Words, strings.ToLower(fields[i]))
		}
	}
	return f, nil
}

// Match reports whether the filter keeps row r.
func (f FleetFilter) Match(r FleetRow) bool {
	if f.Namespace != "" && r.Namespace != f.Namespace || f.Cluster != "" && r.Cluster != f.Cluster {
		return false
	}
	if len(f.States)+len(f.StateWords) > 0 && !slices.Contains(f.States, r.State) && !slices.Contains(f.StateWords, r.Word) {
		return false
	}
	hay := strings.ToLower(r.Namespace + "/" + short(r.Kind) + "/" + r.Name)
	for _, w := range f.Words {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// FleetLine is a row as `rollscope --plain -A` prints it when its state
// changes, NAMESPACE KIND/NAME STATE first so that grep and awk find them:
// "billing deploy/ledger rolling rev 4 3/10 updated 8/10 available
// app=ledger:1 → app=ledger:2 — rolling out: ...".
func FleetLine(r FleetRow) string {
	line := ""
	if r.Cluster != "" {
		line = r.Cluster + " "
	}
	line += fmt.Sprintf("%s %s %s rev %d %d/%d updated %d/%d available", r.Namespace, r.Ref(), r.Word, r.Revision, r.Updated, r.Desired, r.Available, r.Desired)
	if len(r.From) > 0 {
		line += " " + strings.Join(r.From, ",") + " → " + strings.Join(r.Images, ",")
	}
	if r.Why != "" {
		line += " — " + r.Why
	}
	return line
}

// SameFigures reports whether two rows of a workload show the same state
// and figures: the state word, the revision, the images and the progress
// bar's numbers. The reason may differ (another pod named, a clock moved):
// `--plain -A` prints a workload's line again when its figures change, so
// that its last line says what the console shows.
func SameFigures(a, b FleetRow) bool {
	return a.Word == b.Word && a.Revision == b.Revision && a.Desired == b.Desired && a.Updated == b.Updated &&
		a.Available == b.Available && slices.Equal(a.Images, b.Images) && slices.Equal(a.From, b.From)
}

// Urgent counts the workloads that need a human now: failing (failed, or
// crash-looping) and stuck.
type Urgent struct{ Failing, Stuck int }

// Any reports whether anything is urgent.
func (u Urgent) Any() bool { return u.Failing > 0 || u.Stuck > 0 }

// UrgentOutside counts what is urgent among rows outside namespace: what a
// fleet narrowed to namespace would otherwise hide. With namespace ""
// every row is shown, and nothing is counted.
func UrgentOutside(rows []FleetRow, namespace string) Urgent {
	if namespace == "" {
		return Urgent{}
	}
	return urgent(rows, func(r FleetRow) bool { return r.Namespace != namespace })
}

// UrgentIn counts what is urgent among rows: one cluster's, for the
// fleet's line per cluster.
func UrgentIn(rows []FleetRow) Urgent { return urgent(rows, func(FleetRow) bool { return true }) }

func urgent(rows []FleetRow, counts func(FleetRow) bool) Urgent {
	var u Urgent
	for _, r := range rows {
		if !counts(r) {
			continue
		}
		switch r.State {
		case FleetFailed, FleetCrashLooping:
			u.Failing++
		case FleetStuck:
			u.Stuck++
		}
	}
	return u
}
