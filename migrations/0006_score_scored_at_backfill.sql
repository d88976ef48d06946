-- Scores written before scored_at existed were made when they were created.
UPDATE safety_scores SET scored_at = created_at WHERE scored_at > created_at;
