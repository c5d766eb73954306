package auth

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
)

// AWSIdentity is what API Gateway or Lambda established about a caller
// before the function ran. The Lambda adapter copies it from the event's
// requestContext.authorizer: an HTTP API JWT authorizer's claims (API
// Gateway passes every claim as a string; lists arrive as "[a b]", read as
// gatewayGroups says) and
// scopes, or the IAM identity of a request signed for AWS_IAM auth.
type AWSIdentity struct {
	JWTClaims map[string]string
	JWTScopes []string
	IAM       *IAMIdentity
}

// IAMIdentity is the IAM principal of a signed request.
type IAMIdentity struct {
	UserARN, AccountID string
}

type awsKey struct{}

// WithAWSIdentity returns ctx carrying id, for ModeAWS.
func WithAWSIdentity(ctx context.Context, id AWSIdentity) context.Context {
	return context.WithValue(ctx, awsKey{}, id)
}

// awsAuth trusts the identity in the request context. A JWT caller's
// groups come from groupsClaim (gatewayGroups: an ambiguous list grants
// none, the reason logged at debug level) and its scopes from the
// authorizer's scopes and the "scope" and "scp" claims; an IAM caller's
// groups are its user ARN and "aws-account:<id>".
func awsAuth(groupsClaim string, logger *slog.Logger) authenticator {
	return func(r *http.Request) (Caller, error) {
		id, ok := r.Context().Value(awsKey{}).(AWSIdentity)
		switch {
		case !ok:
			return Caller{}, errNoCredentials
		case id.JWTClaims != nil:
			c := id.JWTClaims
			groups, err := gatewayGroups(c, groupsClaim, r)
			if err != nil {
				logger.Debug("groups not granted", "mode", ModeAWS, "subject", c["sub"], "reason", err.Error())
			}
			scopes := append(append([]string{}, id.JWTScopes...), gatewayScopes(c["scope"])...)
			return Caller{Subject: c["sub"], Groups: groups, Scopes: append(scopes, gatewayScopes(c["scp"])...)}, nil
		case id.IAM != nil && id.IAM.UserARN != "":
			return Caller{Subject: id.IAM.UserARN, Groups: []string{id.IAM.UserARN, "aws-account:" + id.IAM.AccountID}}, nil
		}
		return Caller{}, errors.New("the request context carries no authorizer identity")
	}
}
