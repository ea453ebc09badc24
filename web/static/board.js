/* Cohort board drawing: replaced by the front end. */
