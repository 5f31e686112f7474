"""The public JSON API, version 1: matches, clubs, and the OpenAPI document that describes both."""
