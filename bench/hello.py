"""The baseline: a Flask hello-world route, served by the same gunicorn settings as the app."""

from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello() -> str:
    return "Hello, World!"
