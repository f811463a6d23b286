package rollout

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
