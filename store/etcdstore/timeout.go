package etcdstore

import (
	"context"
	"errors"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// requestTimeout is a gRPC interceptor that gives every request to the
// cluster a deadline of d unless its caller set an earlier one. etcd's
// client sets none, and a request a member never answers (a member
// stalled or starved under load: seen holding a process's start for
// minutes) would otherwise wait for good. Streams (watches, lease
// renewals) are not requests and keep their own contexts.
func requestTimeout(d time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > d {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

// timedOut reports whether err is a request's deadline passing, which
// under ctx (still live) is requestTimeout's: the request's outcome is
// unknown, and it may be tried again.
func timedOut(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	return errors.Is(err, context.DeadlineExceeded) || status.Code(err) == codes.DeadlineExceeded
}
