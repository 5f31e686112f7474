"""The web layer: pages, hand entry and the JSON API, one blueprint each."""
