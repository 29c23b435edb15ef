"""Fonts: simple and composite fonts, encodings, CMaps, embedded font programs and the CID
collections."""
