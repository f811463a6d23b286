package scenario

import (
	"fmt"
	"time"

	"go.yaml.in/yaml/v3"

	"rollscope/engine/kubelet"
)

var imageKeys = []string{"match", "pull", "start", "ready", "jitter", "stop", "crashLoop", "pullError", "logs"}

func (p *parser) images(n *yaml.Node) ([]kubelet.ImageRule, error) {
	items, err := p.sequence(n, "images", "- {match: \"*\", start: 1s, ready: 1s}")
	if err != nil {
		return nil, err
	}
	rules := make([]kubelet.ImageRule, 0, len(items))
	for i, it := range items {
		r, err := p.imageRule(it, fmt.Sprintf("images[%d]", i))
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, nil
}

func (p *parser) imageRule(n *yaml.Node, where string) (kubelet.ImageRule, error) {
	var r kubelet.ImageRule
	f, err := p.mapping(n, where, imageKeys...)
	if err != nil {
		return r, err
	}
	if r.Match, err = p.str(f.get("match"), where+".match"); err != nil {
		return r, err
	}
	if r.Match == "" {
		return r, p.errorf(firstNode(f.get("match"), f.node), "%s has no match (add match: \"*\" or a glob such as \"nginx:*\")", where)
	}
	for _, d := range []struct {
		key string
		to  *time.Duration
	}{{"pull", &r.Pull}, {"start", &r.Start}, {"ready", &r.Ready}, {"jitter", &r.Jitter}, {"stop", &r.Stop}} {
		if v := f.get(d.key); v != nil {
			if *d.to, err = p.duration(v, where+"."+d.key); err != nil {
				return r, err
			}
		}
	}
	if v := f.get("crashLoop"); v != nil {
		if r.CrashLoop, err = p.boolean(v, where+".crashLoop"); err != nil {
			return r, err
		}
	}
	if v := f.get("pullError"); v != nil {
		if r.PullError, err = p.boolean(v, where+".pullError"); err != nil {
			return r, err
		}
	}
	if v := f.get("logs"); v != nil {
		if r.Logs, err = p.logLines(v, where+".logs"); err != nil {
			return r, err
		}
	}
	if r.CrashLoop && r.PullError {
		return r, p.errorf(f.keys["pullError"], "%s sets both crashLoop and pullError (a container that is never pulled cannot crash; keep one)", where)
	}
	return r, nil
}

// logLines reads an image rule's log lines: what each run of a matching
// container writes when it starts.
func (p *parser) logLines(n *yaml.Node, where string) ([]string, error) {
	items, err := p.sequence(n, where, `logs: ["starting", "listening on :8080"]`)
	if err != nil {
		return nil, err
	}
	lines := make([]string, 0, len(items))
	for i, it := range items {
		line, err := p.str(it, fmt.Sprintf("%s[%d]", where, i))
		if err != nil {
			return nil, err
		}
		lines = append(lines, line)
	}
	return lines, nil
}
