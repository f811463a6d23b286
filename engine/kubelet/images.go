package kubelet

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// fullReference expands an image reference the way the container runtime
// does before pulling: Docker Hub's domain and "library/" for short names, and
// ":latest" when neither tag nor digest is given.
func fullReference(image string) string {
	name, digest, hasDigest := strings.Cut(image, "@")
	first, _, hasSlash := strings.Cut(name, "/")
	if !hasSlash || (!strings.ContainsAny(first, ".:") && first != "localhost") {
		if !hasSlash {
			name = "library/" + name
		}
		name = "docker.io/" + name
	}
	if hasDigest {
		return name + "@" + digest
	}
	lastSlash := strings.LastIndexByte(name, '/')
	if !strings.Contains(name[lastSlash+1:], ":") {
		name += ":latest"
	}
	return name
}

// repository is a full reference without its tag or digest.
func repository(full string) string {
	if name, _, ok := strings.Cut(full, "@"); ok {
		return name
	}
	lastSlash := strings.LastIndexByte(full, '/')
	if colon := strings.LastIndexByte(full, ':'); colon > lastSlash {
		return full[:colon]
	}
	return full
}

// imageID is the digest reference a runtime reports for a pulled image; it is
// derived from the reference so that it is stable across runs.
func imageID(image string) string {
	full := fullReference(image)
	sum := sha256.Sum256([]byte(full))
	return repository(full) + "@sha256:" + hex.EncodeToString(sum[:])
}

// containerID names one run of a container, as containerd does: a new ID for
// every restart.
// It is the SHA-256 of "uid/container/restart", built without fmt: every
// container start asks for one.
func containerID(uid, container string, restart int32) string {
	var in [128]byte
	name := append(in[:0], uid...)
	name = append(name, '/')
	name = append(name, container...)
	name = append(name, '/')
	name = strconv.AppendInt(name, int64(restart), 10)
	sum := sha256.Sum256(name)
	const prefix = "containerd://"
	var id [len(prefix) + 2*sha256.Size]byte
	copy(id[:], prefix)
	hex.Encode(id[len(prefix):], sum[:])
	return string(id[:])
}

// pullErrorMessage is what containerd answers when a tag does not exist; the
// kubelet shows it as the ErrImagePull message.
func pullErrorMessage(image string) string {
	full := fullReference(image)
	return fmt.Sprintf("rpc error: code = NotFound desc = failed to pull and unpack image %q: failed to resolve reference %q: %s: not found", full, full, full)
}
