package label_test

import "context"

type contextT = context.Context
