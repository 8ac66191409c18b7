"""Clinician review of the labels: web app, storage, agreement statistics and adjudicated labels."""
