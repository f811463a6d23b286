package ui

import (
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/themes"
	"rollscope/ui/draw"
)

// Pane is the contract every pane honours, so the root treats them alike:
// it forwards messages to the focused one, sizes them all, and builds the
// footer from their key maps. Only the root returns a tea.View.
type Pane interface {
	Update(tea.Msg) (Pane, tea.Cmd)
	View() string
	SetSize(w, h int)
	KeyMap() help.KeyMap
}

// focus names the panes, in tab order.
type focus int

const (
	focusReplicaSets focus = iota
	focusPods
	focusNodes
	focusHistory
	focusTimeline
	paneCount
)

var paneTitles = [paneCount]string{"ReplicaSets", "Pods", "Nodes", "History", "Timeline"}

func (f focus) String() string {
	if f < 0 || f >= paneCount {
		return "?"
	}
	return paneTitles[f]
}

// screen is what every pane reads: the views fetched in the last Update,
// the styles and the keys. The root owns it; panes only read it, except the
// ReplicaSets pane, which records which ReplicaSet the pods pane shows.
type screen struct {
	styles themes.Styles
	paints draw.Paints
	keys   *KeyMap
	src    Source
	now    time.Time

	namespace, deployment string
	rollout               model.RolloutView
	haveRollout           bool
	nodes                 []model.NodeRow
	timeline              []model.TimelineEntry
	watch                 model.WatchStatus
	speed                 float64 // the embedded clock's, read in Update
	clockPaused           bool

	// selectedRS is the ReplicaSet under the ReplicaSets pane's cursor.
	selectedRS string
	// pausedWant is the paused state an action just set (see
	// applyPausedWant).
	pausedWant *pausedWant
	// readOnly puts READ-ONLY in the header.
	readOnly bool
}

// replicaSet returns the selected ReplicaSet, or the newest one.
func (s *screen) replicaSet() (model.ReplicaSetRow, bool) {
	rss := s.rollout.ReplicaSets
	for _, rs := range rss {
		if rs.Name == s.selectedRS {
			return rs, true
		}
	}
	if len(rss) > 0 {
		return rss[0], true
	}
	return model.ReplicaSetRow{}, false
}

// refreshedMsg tells the panes the views in screen were fetched again.
type refreshedMsg struct{}

// Every pane's View returns at most its height in lines, each exactly its
// width in cells: the root joins them side by side without measuring.

// focusMsg tells a pane it gained (true) or lost (false) the focus.
type focusMsg bool
