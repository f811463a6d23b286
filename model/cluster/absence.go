package cluster

import (
	"time"

	corev1 "k8s.io/api/core/v1"
)

// Absence says why a deployment is not in the picture, as far as the
// watches know: it was deleted while the console watched, or its namespace
// does not exist. The zero value says neither is known.
type Absence struct {
	// DeletedAt is when the console saw the deployment deleted.
	DeletedAt time.Time
	// NoNamespace is set when the namespace is not among the cluster's,
	// once they were listed in full.
	NoNamespace bool
}

// Absent is why namespace/name is not in the picture.
func (c *Cluster) Absent(namespace, name string) Absence {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var a Absence
	a.DeletedAt = c.deletedAt[objectKey(namespace, name)]
	// Namespaces are only trusted listed in full: a user who may not
	// list them learns nothing from their absence.
	if namespace != "" && c.watch.Synced && !c.watch.MayNotList("Namespace") && !c.namespaces[namespace] {
		a.NoNamespace = true
	}
	return a
}

// noteGone records a deployment's deletion, and the end of its timeline,
// and forgets a deleted namespace; it reports whether a namespace went.
func (c *Cluster) noteGone(ref ObjectRef, at time.Time) bool {
	switch ref.Kind {
	case "Namespace":
		if !c.namespaces[ref.Name] {
			return false
		}
		delete(c.namespaces, ref.Name)
		return true
	case "Deployment":
		key := objectKey(ref.Namespace, ref.Name)
		if t := c.timelines[key]; t != nil {
			if _, seen := c.deletedAt[key]; !seen {
				t.add(TimelineEntry{Time: at, Kind: TimelineEvent, Object: "deployment/" + ref.Name, Message: "deployment deleted", Warning: true})
			}
		}
		if _, seen := c.deletedAt[key]; !seen {
			c.deletedAt[key] = at
		}
	}
	return false
}

func (c *Cluster) putNamespace(ns *corev1.Namespace) bool {
	if c.namespaces[ns.Name] {
		return false
	}
	c.namespaces[ns.Name] = true
	return true
}
