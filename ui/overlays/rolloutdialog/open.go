package rolloutdialog

import (
	"rollscope/model/action"
	"rollscope/model/cluster"
	"rollscope/ui/screen"
)

// Containers brings a deployment's containers to a set image or set env
// dialog.
type Containers struct {
	req        action.Request
	containers []action.Container
	err        error
}

// Opened opens the set image or set env dialog once the containers are
// known, or says why it cannot.
func Opened(s *screen.Screen, msg Containers) screen.Overlay {
	s.Fetched()
	name := string(msg.req.Action)
	if msg.err != nil {
		s.Toast = name + ": " + msg.err.Error()
		return nil
	}
	if len(msg.containers) == 0 {
		s.Toast = name + ": deployment/" + msg.req.Name + " has no containers"
		return nil
	}
	d := &Dialog{s: s, req: msg.req, containers: msg.containers}
	if msg.req.Action == action.SetImage {
		d.completions = pastImages(s.Rollout)
	}
	if len(msg.containers) == 1 {
		d.req.Container = msg.containers[0].Name
		d.stage = stageInput
		d.startInput()
	}
	return d
}

// pastImages are the images of every revision, newest first, for the set
// image completion.
func pastImages(r cluster.RolloutView) []string {
	seen := map[string]bool{}
	var out []string
	h := r.History
	for i := len(h) - 1; i >= 0; i-- {
		for _, img := range h[i].Images {
			if !seen[img] {
				seen[img] = true
				out = append(out, img)
			}
		}
	}
	return out
}
