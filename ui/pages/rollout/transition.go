package rollout

import (
	"slices"
	"strings"

	"rollscope/model/cluster"
	"rollscope/ui/draw"
)

// imageChange is what a running rollout changes, "from → to", for the
// header: with three ReplicaSets in flight it says which images are
// leaving and which arriving. Only the images that differ are named, each
// cut from the middle so its tag stays; "" when no rollout runs.
func imageChange(r cluster.RolloutView, w int) string {
	if r.Done {
		return ""
	}
	var to, from []string
	var fromPods int32
	for _, rs := range r.ReplicaSets {
		switch {
		case rs.Role == cluster.RoleNew:
			to = rs.Images
		case rs.Role == cluster.RoleOld && max(rs.Desired, rs.Current) > fromPods:
			// The old ReplicaSet with the most pods is what the
			// rollout is replacing.
			from, fromPods = rs.Images, max(rs.Desired, rs.Current)
		}
	}
	if to == nil || from == nil || slices.Equal(from, to) {
		return ""
	}
	var gone, come []string
	for _, img := range from {
		if !slices.Contains(to, img) {
			gone = append(gone, img)
		}
	}
	for _, img := range to {
		if !slices.Contains(from, img) {
			come = append(come, img)
		}
	}
	each := max((w-3)/2, 8)
	return draw.CutImages(strings.Join(gone, ","), each) + " → " + draw.CutImages(strings.Join(come, ","), each)
}
