//! Reading and writing LTSs: Aldebaran `.aut`, DOT, JSON.
